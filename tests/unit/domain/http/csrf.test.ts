import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrfCheck, csrfRequired, tokensMatch } from '../../../../domain/http/csrf.js';
import type { CsrfInput, CsrfVerdict } from '../../../../domain/http/csrf.js';

const TOKEN = 'k3Jq9x2VbT0aZr7mW1nPq8sLc4dYf6gH5uE0iO2pAa';
const WRONG = 'k3Jq9x2VbT0aZr7mW1nPq8sLc4dYf6gH5uE0iO2pAb';

const base: CsrfInput = { method: 'POST', sessionToken: TOKEN, xsrfCookieEnabled: false, bearer: false, exempt: false };
const passed: CsrfVerdict = { kind: 'passed' };
const missing: CsrfVerdict = { kind: 'refused', reason: 'missing' };
const mismatch: CsrfVerdict = { kind: 'refused', reason: 'mismatch' };

describe('csrfRequired', () => {
  it.each([
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', true],
    ['post', true],
    ['delete', true],
    ['GET', false],
    ['HEAD', false],
    ['OPTIONS', false],
    ['get', false],
  ])('%s → %s', (method, required) => {
    expect(csrfRequired(method)).toBe(required);
  });
});

describe('csrfCheck', () => {
  it.each<[string, Partial<CsrfInput>, CsrfVerdict]>([
    // Which requests are checked at all.
    ['GET without a token', { method: 'GET' }, { kind: 'skipped', reason: 'safe-method' }],
    ['HEAD with a wrong token', { method: 'HEAD', fieldToken: WRONG }, { kind: 'skipped', reason: 'safe-method' }],
    ['OPTIONS', { method: 'OPTIONS' }, { kind: 'skipped', reason: 'safe-method' }],
    ['an exempt route', { exempt: true }, { kind: 'skipped', reason: 'exempt' }],
    ['an exempt route with a Bearer token', { exempt: true, bearer: true }, { kind: 'skipped', reason: 'exempt' }],
    ['a Bearer request', { bearer: true }, { kind: 'skipped', reason: 'bearer' }],
    ['a Bearer request with a wrong token', { bearer: true, headerToken: WRONG }, { kind: 'skipped', reason: 'bearer' }],
    ['a GET with a Bearer token', { method: 'GET', bearer: true }, { kind: 'skipped', reason: 'safe-method' }],
    // Each source alone.
    ['the _token field', { fieldToken: TOKEN }, passed],
    ['the X-CSRF-Token header', { headerToken: TOKEN }, passed],
    ['X-XSRF-TOKEN with the cookie on', { xsrfHeaderToken: TOKEN, xsrfCookieEnabled: true }, passed],
    ['X-XSRF-TOKEN with the cookie off (ignored)', { xsrfHeaderToken: TOKEN }, missing],
    ['every method needing one: PUT', { method: 'PUT', headerToken: TOKEN }, passed],
    ['every method needing one: PATCH', { method: 'patch', headerToken: TOKEN }, passed],
    ['every method needing one: DELETE', { method: 'DELETE' }, missing],
    // Wrong or absent.
    ['no token at all', {}, missing],
    ['empty strings everywhere', { fieldToken: '', headerToken: '', xsrfHeaderToken: '', xsrfCookieEnabled: true }, missing],
    ['null sources', { fieldToken: null, headerToken: null, xsrfHeaderToken: null, xsrfCookieEnabled: true }, missing],
    ['a wrong field', { fieldToken: WRONG }, mismatch],
    ['a wrong header', { headerToken: WRONG }, mismatch],
    ['a wrong X-XSRF-TOKEN', { xsrfHeaderToken: WRONG, xsrfCookieEnabled: true }, mismatch],
    ['a shorter token', { fieldToken: TOKEN.slice(1) }, mismatch],
    ['a longer token', { fieldToken: `${TOKEN}x` }, mismatch],
    ['a token in another case', { fieldToken: TOKEN.toUpperCase() }, mismatch],
    ['a session without a token', { sessionToken: null, fieldToken: TOKEN }, mismatch],
    ['a session with an empty token', { sessionToken: '', fieldToken: '' }, missing],
    ['a session with an empty token and a sent one', { sessionToken: '', headerToken: TOKEN }, mismatch],
    // Order of sources: the first non-empty one decides.
    ['a right field before a wrong header', { fieldToken: TOKEN, headerToken: WRONG }, passed],
    ['a wrong field before a right header', { fieldToken: WRONG, headerToken: TOKEN }, mismatch],
    ['an empty field, then a right header', { fieldToken: '', headerToken: TOKEN }, passed],
    ['a right header before a wrong X-XSRF-TOKEN', { headerToken: TOKEN, xsrfHeaderToken: WRONG, xsrfCookieEnabled: true }, passed],
    ['a wrong header before a right X-XSRF-TOKEN', { headerToken: WRONG, xsrfHeaderToken: TOKEN, xsrfCookieEnabled: true }, mismatch],
    ['a wrong field, X-XSRF-TOKEN right but the cookie off', { fieldToken: WRONG, xsrfHeaderToken: TOKEN }, mismatch],
  ])('%s', (_label, input, expected) => {
    expect(csrfCheck({ ...base, ...input })).toEqual(expected);
  });

  it('passes exactly when the first token sent equals the session token', () => {
    const token = fc.option(fc.constantFrom(TOKEN, WRONG, '', TOKEN.slice(2)), { nil: undefined });
    fc.assert(
      fc.property(token, token, token, fc.boolean(), (fieldToken, headerToken, xsrfHeaderToken, xsrfCookieEnabled) => {
        const verdict = csrfCheck({ ...base, fieldToken, headerToken, xsrfHeaderToken, xsrfCookieEnabled });
        const first = [fieldToken, headerToken, xsrfCookieEnabled ? xsrfHeaderToken : undefined].find((t) => t !== undefined && t !== '');
        expect(verdict).toEqual(first === undefined ? missing : first === TOKEN ? passed : mismatch);
      }),
    );
  });
});

describe('tokensMatch', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['', '', true],
    // Same number of UTF-16 units, different byte lengths: compared as bytes, never throws.
    ['é', 'e', false],
    ['ée', 'éé', false],
  ])('%j vs %j → %s', (a, b, expected) => {
    expect(tokensMatch(a, b)).toBe(expected);
  });

  it('agrees with === for any strings, equal or not', () => {
    const text = fc.string({ unit: 'binary', maxLength: 24 });
    fc.assert(fc.property(text, text, fc.boolean(), (a, b, same) => tokensMatch(a, same ? a : b) === (same || a === b)));
  });
});
