import { describe, expect, it } from 'vitest';
import { PASSWORD_CONFIRMATION_MINUTES } from '../../../../domain/session/lifetime.js';
import { decideCallback } from '../../../../domain/oauth/callback-outcome.js';
import { refusalLanding, SIGN_IN_MESSAGES, signInRefused, TRY_AGAIN, UNLINK_MESSAGES } from '../../../../domain/oauth/errors.js';
import type { SignInRefusalReason } from '../../../../domain/oauth/errors.js';
import {
  ACCOUNTS_PER_USER_PER_PROVIDER,
  RECENT_CONFIRMATION_MINUTES,
  STATE_LIFETIME_MINUTES,
  STATE_USES,
  USERS_PER_PROVIDER_ACCOUNT,
} from '../../../../domain/oauth/limits.js';
import { addPendingSignIn, takePendingSignIn } from '../../../../domain/oauth/pending-sign-ins.js';
import { providerEnabled } from '../../../../domain/oauth/provider.js';
import { decideUnlink } from '../../../../domain/oauth/unlink.js';
import type { CredentialValues } from '../../../../domain/oauth/provider.js';
import { facts, linkBy, user, withProfile } from './callback-facts.js';
import { aPendingSignIn, minutesAfter, T0 } from '../../../support/builders.js';

describe("the spec's Errors table", () => {
  it.each<[string, CredentialValues, boolean]>([
    ['both given: enabled', { clientId: 'id', clientSecret: 'secret' }, true],
    ['provider not enabled (no credentials) → 404', { clientId: null, clientSecret: null }, false],
    ['only a client id → off', { clientId: 'id', clientSecret: undefined }, false],
    ['only a secret → off', { clientId: undefined, clientSecret: 'secret' }, false],
    ['blank values count as unset → off', { clientId: '  ', clientSecret: 'secret' }, false],
  ])('%s', (_row, credentials, enabled) => {
    expect(providerEnabled(credentials)).toBe(enabled);
  });

  const stored = addPendingSignIn(undefined, aPendingSignIn(), T0);
  it.each<[string, unknown, string, Date]>([
    ['callback from another browser → refused', undefined, 'provider_a', T0],
    ['callback after ten minutes → refused', stored, 'provider_a', minutesAfter(T0, STATE_LIFETIME_MINUTES)],
    ['callback for another provider → refused', stored, 'provider_b', T0],
  ])('%s, and the visitor reads try again', (_row, session, provider, now) => {
    expect(takePendingSignIn(session, { provider, state: aPendingSignIn().state }, now).check.kind).toBe('refused');
    expect(signInRefused('state-refused', refusalLanding(null, false))).toMatchObject({ landing: 'login', log: 'warn', notice: { message: TRY_AGAIN }, events: [] });
  });

  it.each<[string, Parameters<typeof facts>[0], SignInRefusalReason, RegExp]>([
    ['unverified provider address, not linked → refused, nothing made', withProfile({ emailVerified: false }), 'unverified-email', /verified email address/u],
    ['missing provider address, not linked → refused, nothing made', withProfile({ emailAddress: null, emailVerified: false }), 'unverified-email', /verified email address/u],
    [
      'address belongs to a user whose address is unverified → refused with advice to log in with the password and link from the account page',
      { userWithEmail: user(5, { emailVerified: false }) },
      'email-owner-unverified',
      /Log in with your password, then link the provider from your account page/u,
    ],
    ['no user with the address and registration closed → refused: no account uses this address', { registrationOpen: false }, 'registration-closed', /^No account uses this email address\.$/u],
  ])('%s', (_row, over, reason, message) => {
    const outcome = decideCallback(facts(over));
    expect(outcome).toMatchObject({ kind: 'refused', reason, events: [], landing: 'login' });
    expect(outcome.notice?.message).toMatch(message);
  });

  it('unlink of the only provider of a password-less user → refused', () => {
    const outcome = decideUnlink({ provider: 'provider_a', hasPassword: false, linkedProviders: ['provider_a'], enabledProviders: ['provider_a'] });
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'only-way-to-log-in', notice: { message: UNLINK_MESSAGES['only-way-to-log-in'] } });
  });

  it.each<SignInRefusalReason>(['failed', 'state-refused', 'visitor-changed'])("any failure during sign-in (%s) → a 'try again' message, logged at warn", (reason) => {
    expect(signInRefused(reason, 'login')).toEqual({ kind: 'refused', reason, log: 'warn', landing: 'login', notice: { level: 'error', message: TRY_AGAIN }, events: [] });
  });

  it('the rules working (the table’s refusals, a person saying no) are logged at info', () => {
    const reasons = Object.keys(SIGN_IN_MESSAGES) as SignInRefusalReason[];
    const info = reasons.filter((reason) => signInRefused(reason, 'login').log === 'info');
    expect(info.sort()).toEqual(
      ['already-logged-in', 'denied', 'email-owner-unverified', 'linked-to-another-user', 'not-linked-to-you', 'own-email-unverified', 'provider-already-linked', 'registration-closed', 'unverified-email'].sort(),
    );
  });

  it.each<[string, Parameters<typeof refusalLanding>, string]>([
    ['a guest goes to the login page', ['login', false], 'login'],
    ['a refused Link goes to the account page', ['link', true], 'account'],
    ['a refused confirmation goes back to /confirm-password', ['confirm', true], 'confirm-password'],
    ['a user whose state was refused goes to the landing page', [null, true], 'intended'],
    ['a guest whose Link outlived the session goes to the login page', ['link', false], 'login'],
  ])('%s', (_what, args, landing) => {
    expect(refusalLanding(...args)).toBe(landing);
  });
});

describe("the spec's Limits table", () => {
  it('lifetime of state: ten minutes, single use', () => {
    expect([STATE_LIFETIME_MINUTES, STATE_USES]).toEqual([10, 1]);
    const stored = addPendingSignIn(undefined, aPendingSignIn(), T0);
    const early = minutesAfter(T0, STATE_LIFETIME_MINUTES - 1);
    const first = takePendingSignIn(stored, { provider: 'provider_a', state: aPendingSignIn().state }, early);
    expect(first.check.kind).toBe('accepted');
    expect(takePendingSignIn(first.remaining, { provider: 'provider_a', state: aPendingSignIn().state }, early).check).toEqual({ kind: 'refused', reason: 'unknown-state' });
  });

  it('recent confirmation after login: three hours, the same as a typed password', () => {
    expect(RECENT_CONFIRMATION_MINUTES).toBe(180);
    expect(RECENT_CONFIRMATION_MINUTES).toBe(PASSWORD_CONFIRMATION_MINUTES);
  });

  it('provider accounts per user per provider: one', () => {
    expect(ACCOUNTS_PER_USER_PER_PROVIDER).toBe(1);
    expect(decideCallback(facts({ purpose: linkBy(3), visitor: user(3, { linkedAtProvider: true }) }))).toMatchObject({ reason: 'provider-already-linked' });
    expect(decideCallback(facts({ userWithEmail: user(5, { linkedAtProvider: true }) }))).toMatchObject({ reason: 'provider-already-linked' });
  });

  it('users per provider account: one', () => {
    expect(USERS_PER_PROVIDER_ACCOUNT).toBe(1);
    expect(decideCallback(facts({ purpose: linkBy(3), visitor: user(3), linkedUserId: 4 }))).toMatchObject({ reason: 'linked-to-another-user' });
  });
});
