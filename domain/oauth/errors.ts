import type { SignInIntent } from './sign-in-purpose.js';

/**
 * The errors table of the social-login spec: why a sign-in or an unlink is refused, what the
 * visitor is told (a code; the words are the pages'), and how loud the log is. No HTTP status here: 'provider not enabled → 404' is
 * `providerEnabled()` plus the HTTP layer's mapping.
 */
export type SignInRefusalReason =
  /** Not linked, and the provider did not verify the address or gave none. */
  | 'unverified-email'
  /** Not linked, and the user with this address has not verified it. */
  | 'email-owner-unverified'
  /** Not linked, nobody has the address, and the app is `withoutRegistration()`. */
  | 'registration-closed'
  /** The provider account is linked to a user other than the one it would link to. */
  | 'linked-to-another-user'
  /** The user it would link to already has another account at this provider. */
  | 'provider-already-linked'
  /** Link pressed by a user whose own address is unverified (Authentication rule 3). */
  | 'own-email-unverified'
  /** `?intent=confirm` came back with a provider account that is not linked to the visitor. */
  | 'not-linked-to-you'
  /** A guest's sign-in came back into a session where someone has logged in since. */
  | 'already-logged-in'
  /** A Link or a confirmation came back into a session that is no longer its user's. */
  | 'visitor-changed'
  /** `state` refused: another browser, after ten minutes, another provider, or used. */
  | 'state-refused'
  /** The person said no at the provider (`error=access_denied`). */
  | 'denied'
  /** Provider down, a bad or slow answer, a failed code exchange: anything that broke. */
  | 'failed';

export type UnlinkRefusalReason =
  /** The user has no account at this provider. */
  | 'not-linked'
  /** It is the user's only provider and the user has no password. */
  | 'only-way-to-log-in';

/**
 * What the visitor is told, as a stable code. The sentences live where pages are made: the
 * HTTP layer maps each code to a key of the language files (`oauth.message.*`), a command line
 * to its own words; nothing here is English, so a translation or a reworded page never
 * touches the rules.
 */
export type NoticeCode =
  /** Refusals the visitor is told as such; the rest ('denied', a refused state, a changed visitor, a failure) say 'try again'. */
  | Exclude<SignInRefusalReason, 'visitor-changed' | 'state-refused' | 'denied' | 'failed'>
  | UnlinkRefusalReason
  | 'try-again'
  | 'linked'
  | 'already-linked'
  | 'unlinked';

/**
 * What a refused visitor is told, one code per reason. Whatever broke or was tampered with
 * says only 'try again': the visitor learns nothing an attacker could use.
 */
export const SIGN_IN_NOTICES: Readonly<Record<SignInRefusalReason, NoticeCode>> = {
  'unverified-email': 'unverified-email',
  'email-owner-unverified': 'email-owner-unverified',
  'registration-closed': 'registration-closed',
  'linked-to-another-user': 'linked-to-another-user',
  'provider-already-linked': 'provider-already-linked',
  'own-email-unverified': 'own-email-unverified',
  'not-linked-to-you': 'not-linked-to-you',
  'already-logged-in': 'already-logged-in',
  'visitor-changed': 'try-again',
  'state-refused': 'try-again',
  denied: 'try-again',
  failed: 'try-again',
};

/**
 * The spec logs 'any failure during sign-in' at warn: something broke or someone tampered.
 * The table's own refusals and a person pressing Cancel are the rules working: info.
 */
export const WARN_REASONS: ReadonlySet<SignInRefusalReason> = new Set<SignInRefusalReason>(['state-refused', 'failed', 'visitor-changed']);

/** Where the browser goes after a callback; the HTTP layer turns it into a URL. */
export type Landing =
  /** The page that asked for login, else `Auth.redirectTo`, else home (after the two-factor challenge when one waits). */
  | 'intended'
  | 'login'
  | 'account'
  | 'confirm-password';

/** A toast for the next page: how loud, and what it says (as a code). */
export interface Notice {
  readonly level: 'success' | 'info' | 'error';
  readonly code: NoticeCode;
}

export interface SignInRefused {
  readonly kind: 'refused';
  readonly reason: SignInRefusalReason;
  readonly log: 'warn' | 'info';
  readonly landing: Landing;
  readonly notice: Notice;
}

export function signInRefused(reason: SignInRefusalReason, landing: Landing): SignInRefused {
  return {
    kind: 'refused',
    reason,
    log: WARN_REASONS.has(reason) ? 'warn' : 'info',
    landing,
    notice: { level: 'error', code: SIGN_IN_NOTICES[reason] },
  };
}

/**
 * Where a refused visitor goes: back to where the sign-in started. A guest to the login page
 * (the spec's 'try again' there); a Link to /account; a confirmation to /confirm-password; a
 * user whose intent is unknown (the state was refused) or who signed in meanwhile to the
 * landing page, since login pages only let guests in.
 */
export function refusalLanding(intent: SignInIntent | null, visitorSignedIn: boolean): Landing {
  if (!visitorSignedIn) return 'login';
  if (intent === 'link') return 'account';
  if (intent === 'confirm') return 'confirm-password';
  return 'intended';
}
