import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PENDING_SIGN_INS, STATE_LIFETIME_MS } from '../../../../domain/oauth/limits.js';
import { pkceChallenge } from '../../../../domain/oauth/pkce.js';
import { authorizationParameters, newPendingSignIn, pendingSignInToJson, readPendingSignIn } from '../../../../domain/oauth/pending-sign-in.js';
import type { PendingSignInJson } from '../../../../domain/oauth/pending-sign-in.js';
import { aPendingSignIn, guestRemember as guest, seededBytes as bytes, T0 } from '../../../support/builders.js';

describe('a pending sign-in', () => {
  it('holds a random state, a PKCE verifier, a nonce for OpenID, what it is for, and when it started', () => {
    const p = aPendingSignIn();
    expect(p).toEqual({
      provider: 'provider_a',
      state: Buffer.from(bytes(1)).toString('base64url'),
      verifier: Buffer.from(bytes(1001)).toString('base64url'),
      nonce: Buffer.from(bytes(2001)).toString('base64url'),
      intent: 'login',
      userId: null,
      remember: true,
      startedAt: T0,
    });
    expect(Object.isFrozen(p)).toBe(true);
    expect(aPendingSignIn({ openId: false }).nonce).toBeNull();
  });

  it('puts the state, the S256 challenge and the nonce in the authorization URL, never the verifier', () => {
    const p = aPendingSignIn();
    const params = authorizationParameters(p);
    expect(params).toEqual({ state: p.state, code_challenge: pkceChallenge(p.verifier), code_challenge_method: 'S256', nonce: p.nonce });
    expect(Object.values(params)).not.toContain(p.verifier);
    expect(authorizationParameters(aPendingSignIn({ openId: false }))).not.toHaveProperty('nonce');
  });

  it.each<[string, () => unknown]>([
    ['a provider name with a slash', () => aPendingSignIn({ provider: 'a/b' })],
    ['an empty provider name', () => aPendingSignIn({ provider: '' })],
    ['a guest login with a user', () => aPendingSignIn({ purpose: { intent: 'login', userId: 3, remember: false } })],
    ['a link without a user', () => aPendingSignIn({ purpose: { intent: 'link', userId: null, remember: false } })],
    ['a link with remember', () => aPendingSignIn({ purpose: { intent: 'link', userId: 3, remember: true } })],
    ['too few random bytes', () => newPendingSignIn({ provider: 'p', purpose: guest, random: { state: new Uint8Array(16), verifier: bytes(2), nonce: null }, now: T0 })],
    ['an invalid date', () => aPendingSignIn({ now: new Date(Number.NaN) })],
  ])('refuses to start with %s (a programmer error)', (_what, make) => {
    expect(make).toThrow(TypeError);
  });

  it('stores as plain JSON and reads back the same value', () => {
    const p = aPendingSignIn({ purpose: { intent: 'confirm', userId: 9, remember: false } });
    const json = JSON.parse(JSON.stringify(pendingSignInToJson(p))) as unknown;
    expect(readPendingSignIn(json, T0)).toEqual(p);
  });

  const stored = pendingSignInToJson(aPendingSignIn());
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'pending'],
    ['an array', [stored]],
    ['a missing field', { ...stored, nonce: undefined }],
    ['an extra field', { ...stored, admin: true }],
    ['a provider name with a slash', { ...stored, provider: 'a/b' }],
    ['a short state', { ...stored, state: 'abc' }],
    ['a state with padding', { ...stored, state: `${stored.state.slice(0, 42)}=` }],
    ['a verifier of 42 characters', { ...stored, verifier: stored.verifier.slice(0, 42) }],
    ['a numeric nonce', { ...stored, nonce: 5 }],
    ['an unknown intent', { ...stored, intent: 'admin' }],
    ['a login with a user id', { ...stored, userId: 4 }],
    ['a link without a user id', { ...stored, intent: 'link', remember: false }],
    ['remember as text', { ...stored, remember: 'true' }],
    ['the time as a string', { ...stored, startedAt: T0.toISOString() }],
    ['a start more than a minute ahead', { ...stored, startedAt: T0.getTime() + 60_001 }],
  ])('reads %s as damage (null), never an exception', (_what, value) => {
    expect(readPendingSignIn(value, T0)).toBeNull();
  });

  it('tolerates a minute of clock skew between servers', () => {
    expect(readPendingSignIn({ ...stored, startedAt: T0.getTime() + 60_000 }, T0)).not.toBeNull();
  });

  it('never throws on any value, and reads only values it could have written', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const read = readPendingSignIn(value, T0);
        if (read !== null) expect(JSON.parse(JSON.stringify(pendingSignInToJson(read)))).toEqual(value);
      }),
    );
    const field = fc.constantFrom<keyof PendingSignInJson>('provider', 'state', 'verifier', 'nonce', 'intent', 'userId', 'remember', 'startedAt');
    fc.assert(
      fc.property(field, fc.anything(), (name, value) => {
        const damaged: Record<string, unknown> = { ...stored, [name]: value };
        const read = readPendingSignIn(damaged, T0);
        if (read !== null) expect(pendingSignInToJson(read)).toEqual(damaged);
      }),
    );
  });

  it('keeps the state, verifier and nonce distinct values from distinct bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (a, b) => {
        fc.pre(Buffer.compare(a, b) !== 0);
        const p = newPendingSignIn({ provider: 'p', purpose: guest, random: { state: a, verifier: b, nonce: null }, now: T0 });
        expect(p.state).not.toBe(p.verifier);
        expect(p.state).toMatch(/^[A-Za-z0-9_-]{43}$/u);
      }),
    );
  });

  it('lives ten minutes: a constant the limits table gives', () => {
    expect(STATE_LIFETIME_MS).toBe(600_000);
    expect(MAX_PENDING_SIGN_INS).toBeGreaterThanOrEqual(2);
  });
});
