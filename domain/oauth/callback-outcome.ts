import { normalizeEmail } from '../users/email.js';
import { NAME_MAX_LENGTH } from '../users/user.js';
import { refusalLanding, signInRefused } from './errors.js';
import type { Landing, Notice, SignInRefused } from './errors.js';
import { cleanName } from './profile.js';
import type { ProfileFacts } from './profile.js';
import type { SignInPurpose } from './sign-in-purpose.js';

/**
 * The spec's 'Outcome of a callback' table as one total function over plain facts. The use
 * case gathers the facts (the accepted pending sign-in, the visitor, the profile, what the
 * database holds), asks, and carries out the answer in one transaction; it decides nothing.
 * The events are told by whoever knows they happened: `CompleteSignIn` tells `Registered` and
 * `AccountLinked` for the rows it wrote (not for a link a racing request wrote first), and
 * `CompleteLogin` tells `LoggedInWith`/`LoggedIn` once it knows whether a second step waits;
 * a list decided here could say neither.
 */

/** A user as this decision sees one. */
export interface UserFacts {
  readonly id: number;
  /** The user's own address is verified (by the mailed link, or because a provider verified it). */
  readonly emailVerified: boolean;
  /** The user already has an account at this provider (this one or another). */
  readonly linkedAtProvider: boolean;
}

/** What came back from the provider. */
export type ProviderReturn =
  /** The person said no, or closed the provider's page with an error answer. */
  | { readonly kind: 'denied' }
  /** Exchange or profile failed (provider down, bad answer, timeout, wrong `iss`). */
  | { readonly kind: 'failed' }
  | { readonly kind: 'profile'; readonly profile: ProfileFacts };

export interface CallbackFacts {
  readonly provider: string;
  /** From the accepted pending sign-in: what it is for, who asked, 'remember me'. */
  readonly purpose: SignInPurpose;
  /** Who is logged in in this session now; null for a guest. */
  readonly visitor: UserFacts | null;
  readonly returned: ProviderReturn;
  /** The user this provider account is linked to, if any (looked up by provider and provider user id). */
  readonly linkedUserId: number | null;
  /** The user whose address equals the profile's (case-insensitively), if any. */
  readonly userWithEmail: UserFacts | null;
  /** False under `Auth.withoutRegistration()`. */
  readonly registrationOpen: boolean;
}

/** The `oauth_accounts` row a link writes, or refreshes on a later sign-in; never a token. */
export interface LinkedAccountData {
  readonly provider: string;
  readonly providerUserId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly pictureUrl: string | null;
}

interface Outcome {
  readonly landing: Landing;
  readonly notice: Notice | null;
}

export type CallbackOutcome =
  /** Linked already: log that user in; the row's address, name and picture are refreshed. */
  | (Outcome & { readonly kind: 'log-in'; readonly userId: number; readonly remember: boolean; readonly account: LinkedAccountData })
  /** Link to the user who has this (verified) address, then log them in. */
  | (Outcome & { readonly kind: 'link-and-log-in'; readonly userId: number; readonly remember: boolean; readonly account: LinkedAccountData })
  /**
   * Make a user (no password, address verified, through `onRegistered`; registration rules do
   * not run), link, and log in.
   */
  | (Outcome & {
      readonly kind: 'register';
      readonly user: { readonly name: string; readonly email: string };
      readonly remember: boolean;
      readonly account: LinkedAccountData;
    })
  /** Link to the logged-in visitor who pressed Link. */
  | (Outcome & { readonly kind: 'link'; readonly userId: number; readonly account: LinkedAccountData })
  /** Link pressed for a provider account already linked to the visitor: nothing to do. */
  | (Outcome & { readonly kind: 'already-linked'; readonly userId: number })
  /** `?intent=confirm` with the visitor's own provider account: counts as typing the password. */
  | (Outcome & { readonly kind: 'confirm'; readonly userId: number })
  | SignInRefused;

export type CallbackOutcomeKind = CallbackOutcome['kind'];

export function decideCallback(facts: CallbackFacts): CallbackOutcome {
  const { purpose, visitor, returned } = facts;
  const refuse = (reason: SignInRefused['reason']): SignInRefused => signInRefused(reason, refusalLanding(purpose.intent, visitor !== null));
  if (returned.kind === 'denied') return refuse('denied');
  if (returned.kind === 'failed') return refuse('failed');
  const account = accountData(facts.provider, returned.profile);

  if (purpose.intent === 'login') {
    // Never switch users, nor link without the Link control: a guest's sign-in that comes back
    // to a session where someone logged in since does nothing.
    if (visitor !== null) return refuse('already-logged-in');
    return guestSignIn(facts, returned.profile, account, refuse);
  }
  if (visitor === null || visitor.id !== purpose.userId) return refuse('visitor-changed');

  if (purpose.intent === 'confirm') {
    // Only the visitor's own provider account proves who they are; confirming never links.
    if (facts.linkedUserId !== visitor.id) return refuse('not-linked-to-you');
    return { kind: 'confirm', userId: visitor.id, landing: 'intended', notice: null };
  }

  // Link: the address does not matter, the session already says who this is.
  if (facts.linkedUserId === visitor.id) {
    return { kind: 'already-linked', userId: visitor.id, landing: 'account', notice: { level: 'info', code: 'already-linked' } };
  }
  if (facts.linkedUserId !== null) return refuse('linked-to-another-user');
  if (visitor.linkedAtProvider) return refuse('provider-already-linked');
  // Authentication rule 3: never link to a user whose own address is unverified. Otherwise
  // someone who registered a victim's address first could attach their own provider account
  // and keep a way in after the victim takes the account over with 'Forgot your password?'.
  if (!visitor.emailVerified) return refuse('own-email-unverified');
  return { kind: 'link', userId: visitor.id, account, landing: 'account', notice: { level: 'success', code: 'linked' } };
}

function guestSignIn(
  facts: CallbackFacts,
  profile: ProfileFacts,
  account: LinkedAccountData,
  refuse: (reason: SignInRefused['reason']) => SignInRefused,
): CallbackOutcome {
  const remember = facts.purpose.remember;
  const signedIn = { landing: 'intended', notice: null } as const;
  // Linked already: that user, whatever address the provider reports now.
  if (facts.linkedUserId !== null) return { kind: 'log-in', userId: facts.linkedUserId, remember, account, ...signedIn };
  // Checked before looking at who owns the address, so an unverified claim learns nothing about it.
  // `account.email` is null for a missing or malformed address: neither is verified.
  if (account.email === null || profile.emailVerified !== true) return refuse('unverified-email');
  const owner = facts.userWithEmail;
  if (owner !== null) {
    if (!owner.emailVerified) return refuse('email-owner-unverified');
    if (owner.linkedAtProvider) return refuse('provider-already-linked');
    return { kind: 'link-and-log-in', userId: owner.id, remember, account, ...signedIn };
  }
  if (!facts.registrationOpen) return refuse('registration-closed');
  const user = { name: newUserName(account), email: account.email };
  return { kind: 'register', user, remember, account, ...signedIn };
}

/** The profile as the row stores it: the address normalised (junk is none), the name cleaned. */
export function accountData(provider: string, profile: ProfileFacts): LinkedAccountData {
  const email = profile.emailAddress === null ? null : normalizeEmail(profile.emailAddress);
  return {
    provider,
    providerUserId: profile.providerUserId,
    email: email?.kind === 'valid' ? email.email : null,
    name: cleanName(profile.displayName),
    pictureUrl: profile.pictureUrl,
  };
}

/** A user needs a name: the provider's, else the address's local part (the provider gave no other). */
export function newUserName(account: Pick<LinkedAccountData, 'name' | 'email'>): string {
  if (account.name !== null) return account.name;
  const local = (account.email ?? '').split('@')[0] ?? '';
  return [...local].slice(0, NAME_MAX_LENGTH).join('') || 'user';
}
