import { describe, expect, it } from 'vitest';
import { decideCallback, newUserName } from '../../../../domain/oauth/callback-outcome.js';
import type { CallbackFacts, CallbackOutcome } from '../../../../domain/oauth/callback-outcome.js';
import { SIGN_IN_NOTICES } from '../../../../domain/oauth/errors.js';
import type { SignInRefusalReason } from '../../../../domain/oauth/errors.js';
import { confirmBy, facts, guestLogin, linkBy, PROVIDER, user, withProfile } from './callback-facts.js';

const account = { provider: PROVIDER, providerUserId: 'acct-1', email: 'ann@example.com', name: 'Ann Lee', pictureUrl: null };
const signedIn = { landing: 'intended', notice: null } as const;

const refused = (reason: SignInRefusalReason, landing: string, log: 'info' | 'warn' = 'info'): CallbackOutcome =>
  ({ kind: 'refused', reason, log, landing, notice: { level: 'error', code: SIGN_IN_NOTICES[reason] } }) as CallbackOutcome;

describe("decideCallback: the spec's 'Outcome of a callback' table, row by row", () => {
  it.each<[string, CallbackFacts, CallbackOutcome]>([
    // Row 1
    [
      'already linked to a user: that user is logged in',
      facts({ linkedUserId: 7 }),
      { kind: 'log-in', userId: 7, remember: false, account, ...signedIn },
    ],
    [
      'already linked: logged in whatever address the provider reports now (none)',
      facts({ linkedUserId: 7, ...withProfile({ emailAddress: null, emailVerified: false }) }),
      { kind: 'log-in', userId: 7, remember: false, account: { ...account, email: null }, ...signedIn },
    ],
    [
      'already linked: logged in whatever address the provider reports now (unverified, owned by another user)',
      facts({ linkedUserId: 7, ...withProfile({ emailAddress: 'bob@example.com', emailVerified: false }), userWithEmail: user(9) }),
      { kind: 'log-in', userId: 7, remember: false, account: { ...account, email: 'bob@example.com' }, ...signedIn },
    ],
    // Row 2
    ['not linked; the provider did not verify the address: refused, nothing linked or made', facts(withProfile({ emailVerified: false })), refused('unverified-email', 'login')],
    ['not linked; the provider gave no address: refused, nothing linked or made', facts(withProfile({ emailAddress: null, emailVerified: false })), refused('unverified-email', 'login')],
    ['not linked; the provider gave a malformed address, "verified": counts as none', facts(withProfile({ emailAddress: 'not an address' })), refused('unverified-email', 'login')],
    [
      'not linked; unverified by the provider, though a verified user has it: refused (never linked by an unverified address)',
      facts({ ...withProfile({ emailVerified: false }), userWithEmail: user(5) }),
      refused('unverified-email', 'login'),
    ],
    // Row 3
    [
      "not linked; a user has this address, that user's own address is verified, the provider verified it: linked to that user, who is logged in",
      facts({ userWithEmail: user(5) }),
      { kind: 'link-and-log-in', userId: 5, remember: false, account, ...signedIn },
    ],
    [
      'not linked; the address matches whatever its case: the stored address is canonical',
      facts({ ...withProfile({ emailAddress: '  Ann@Example.COM ' }), userWithEmail: user(5) }),
      { kind: 'link-and-log-in', userId: 5, remember: false, account, ...signedIn },
    ],
    // Row 4
    [
      "not linked; a user has this address but that user's address is not verified: refused, with the advice to log in with the password and link from the account page",
      facts({ userWithEmail: user(5, { emailVerified: false }) }),
      refused('email-owner-unverified', 'login'),
    ],
    // Row 5
    [
      'not linked; nobody has the address; registration is open: a new user is made (no password, address verified), linked and logged in',
      facts(),
      {
        kind: 'register',
        user: { name: 'Ann Lee', email: 'ann@example.com' },
        remember: false,
        account,
        ...signedIn,
      },
    ],
    // Row 6
    [
      'not linked; nobody has the address; withoutRegistration(): refused with the message that no account uses this address',
      facts({ registrationOpen: false }),
      refused('registration-closed', 'login'),
    ],
    // Row 7
    [
      'a logged-in user returns (they pressed Link): the provider account is linked to them',
      facts({ purpose: linkBy(3), visitor: user(3) }),
      { kind: 'link', userId: 3, account, landing: 'account', notice: { level: 'success', code: 'linked' } },
    ],
    ['Link: refused when the provider account is linked to someone else', facts({ purpose: linkBy(3), visitor: user(3), linkedUserId: 8 }), refused('linked-to-another-user', 'account')],
    [
      'Link: refused when they already have an account at this provider',
      facts({ purpose: linkBy(3), visitor: user(3, { linkedAtProvider: true }) }),
      refused('provider-already-linked', 'account'),
    ],
    [
      'Link: the address does not matter (none given)',
      facts({ purpose: linkBy(3), visitor: user(3), ...withProfile({ emailAddress: null, emailVerified: false }) }),
      { kind: 'link', userId: 3, account: { ...account, email: null }, landing: 'account', notice: { level: 'success', code: 'linked' } },
    ],
    [
      "Link: the address does not matter (unverified, another user's)",
      facts({ purpose: linkBy(3), visitor: user(3), ...withProfile({ emailAddress: 'bob@example.com', emailVerified: false }), userWithEmail: user(9, { emailVerified: false }) }),
      {
        kind: 'link',
        userId: 3,
        account: { ...account, email: 'bob@example.com' },
        landing: 'account',
        notice: { level: 'success', code: 'linked' },
      },
    ],
    // Row 8
    [
      'a logged-in user returns after ?intent=confirm: treated as having confirmed their identity',
      facts({ purpose: confirmBy(3), visitor: user(3, { linkedAtProvider: true }), linkedUserId: 3 }),
      { kind: 'confirm', userId: 3, landing: 'intended', notice: null },
    ],
  ])('%s', (_row, input, expected) => {
    expect(decideCallback(input)).toEqual(expected);
  });
});

describe('decideCallback: what the table leaves to the framework', () => {
  it.each<[string, CallbackFacts, CallbackOutcome]>([
    [
      "'remember me' asked at the redirect carries to a guest's login",
      facts({ purpose: { ...guestLogin, remember: true }, linkedUserId: 7 }),
      { kind: 'log-in', userId: 7, remember: true, account, ...signedIn },
    ],
    [
      'Link pressed for a provider account already linked to the visitor: nothing to do',
      facts({ purpose: linkBy(3), visitor: user(3, { linkedAtProvider: true }), linkedUserId: 3 }),
      { kind: 'already-linked', userId: 3, landing: 'account', notice: { level: 'info', code: 'already-linked' } },
    ],
    [
      "Link: refused when the visitor's own address is unverified (Authentication rule 3)",
      facts({ purpose: linkBy(3), visitor: user(3, { emailVerified: false }) }),
      refused('own-email-unverified', 'account'),
    ],
    [
      'sign-in by address: refused when that user already has another account at this provider (one per provider)',
      facts({ userWithEmail: user(5, { linkedAtProvider: true }) }),
      refused('provider-already-linked', 'login'),
    ],
    [
      '?intent=confirm with a provider account linked to nobody: refused, nothing linked',
      facts({ purpose: confirmBy(3), visitor: user(3) }),
      refused('not-linked-to-you', 'confirm-password'),
    ],
    [
      "?intent=confirm with someone else's provider account: refused",
      facts({ purpose: confirmBy(3), visitor: user(3), linkedUserId: 8 }),
      refused('not-linked-to-you', 'confirm-password'),
    ],
    [
      "a guest's sign-in returning to a session where someone logged in since: nothing changes",
      facts({ visitor: user(3), linkedUserId: 8 }),
      refused('already-logged-in', 'intended'),
    ],
    ['a Link returning to a session whose user logged out: refused', facts({ purpose: linkBy(3), visitor: null }), refused('visitor-changed', 'login', 'warn')],
    ['a Link returning to a session of another user: refused', facts({ purpose: linkBy(3), visitor: user(4) }), refused('visitor-changed', 'account', 'warn')],
    ['a confirmation returning to a session of another user: refused', facts({ purpose: confirmBy(3), visitor: user(4), linkedUserId: 4 }), refused('visitor-changed', 'confirm-password', 'warn')],
    ["the person said no at the provider: 'try again' on the login page", facts({ returned: { kind: 'denied' }, linkedUserId: 7 }), refused('denied', 'login')],
    ["any failure during sign-in: 'try again', logged at warn", facts({ returned: { kind: 'failed' }, linkedUserId: 7 }), refused('failed', 'login', 'warn')],
    ['a failure during a Link goes back to the account page', facts({ purpose: linkBy(3), visitor: user(3), returned: { kind: 'failed' } }), refused('failed', 'account', 'warn')],
    [
      'a new user is named after the address when the provider gave no name',
      facts(withProfile({ displayName: '  ' })),
      {
        kind: 'register',
        user: { name: 'ann', email: 'ann@example.com' },
        remember: false,
        account: { ...account, name: null },
        ...signedIn,
      },
    ],
  ])('%s', (_row, input, expected) => {
    expect(decideCallback(input)).toEqual(expected);
  });

  it("the failures say 'try again', the table's refusals say why", () => {
    expect(decideCallback(facts({ returned: { kind: 'failed' } }))).toMatchObject({ notice: { level: 'error', code: 'try-again' } });
    expect(decideCallback(facts({ userWithEmail: user(5, { emailVerified: false }) }))).toMatchObject({ notice: { level: 'error', code: 'email-owner-unverified' } });
    expect(decideCallback(facts({ registrationOpen: false }))).toMatchObject({ notice: { level: 'error', code: 'registration-closed' } });
  });

  it.each([
    [{ name: 'Ann', email: 'a@x.io' }, 'Ann'],
    [{ name: null, email: 'first.last+tag@x.io' }, 'first.last+tag'],
    [{ name: null, email: null }, 'user'],
  ])('names a new user %j as %s', (input, name) => {
    expect(newUserName(input)).toBe(name);
  });
});
