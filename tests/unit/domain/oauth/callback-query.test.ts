import { describe, expect, it } from 'vitest';
import { issuerAccepted, readCallbackQuery } from '../../../../domain/oauth/callback-query.js';
import type { CallbackAnswer, CallbackQuery } from '../../../../domain/oauth/callback-query.js';

describe('readCallbackQuery: oauth.callback takes query code (string) and state (string)', () => {
  it.each<[string, CallbackQuery, CallbackAnswer]>([
    ['a code', { code: 'abc.DEF-123', state: 's' }, { kind: 'code', code: 'abc.DEF-123' }],
    ['the person said no', { error: 'access_denied', state: 's' }, { kind: 'denied' }],
    ['another provider error', { error: 'server_error', state: 's' }, { kind: 'failed', detail: 'provider error server_error' }],
    ['an error that is not logged verbatim', { error: 'x"\n<script>', state: 's' }, { kind: 'failed', detail: 'provider error (unreadable)' }],
    ['an error beside a code: the error wins', { error: 'access_denied', code: 'abc' }, { kind: 'denied' }],
    ['no code', { state: 's' }, { kind: 'failed', detail: 'no usable code' }],
    ['an empty code', { code: '' }, { kind: 'failed', detail: 'no usable code' }],
    ['a repeated code', { code: ['a', 'b'] }, { kind: 'failed', detail: 'no usable code' }],
    ['a code with a newline', { code: 'a\nb' }, { kind: 'failed', detail: 'no usable code' }],
    ['a code of 2049 characters', { code: 'a'.repeat(2049) }, { kind: 'failed', detail: 'no usable code' }],
  ])('%s', (_what, query, answer) => {
    expect(readCallbackQuery(query).answer).toEqual(answer);
  });

  it('hands the state on as it came, and the iss when it is one string', () => {
    expect(readCallbackQuery({ code: 'c', state: ['a', 'b'], iss: 'https://id.example' })).toEqual({ state: ['a', 'b'], answer: { kind: 'code', code: 'c' }, iss: 'https://id.example' });
    expect(readCallbackQuery({ code: 'c', iss: ['x'] }).iss).toBeNull();
  });
});

describe('issuerAccepted: RFC 9207', () => {
  it.each<[string, { advertised: boolean; received: string | null }, boolean]>([
    ['advertised and equal', { advertised: true, received: 'https://id.example' }, true],
    ['advertised and missing', { advertised: true, received: null }, false],
    ['advertised and another issuer (a mix-up)', { advertised: true, received: 'https://evil.example' }, false],
    ['advertised and differing by a trailing slash (simple string comparison)', { advertised: true, received: 'https://id.example/' }, false],
    ['not advertised and absent', { advertised: false, received: null }, true],
    ['not advertised but present and equal', { advertised: false, received: 'https://id.example' }, true],
    ['not advertised but naming another issuer', { advertised: false, received: 'https://evil.example' }, false],
  ])('%s', (_what, input, accepted) => {
    expect(issuerAccepted({ ...input, expected: 'https://id.example' })).toBe(accepted);
  });
});
