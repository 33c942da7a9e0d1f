import type { SignInIntent } from './sign-in-purpose.js';

/**
 * The errors table of the social-login spec: why a sign-in or an unlink is refused, what the
 * visitor reads, and how loud the log is. No HTTP status here: 'provider not enabled → 404' is
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

export const TRY_AGAIN = 'Signing in with the provider did not work. Please try again.';

/** What the visitor reads, one line per reason, so an app's translations have one list to cover. */
export const SIGN_IN_MESSAGES: Readonly<Record<SignInRefusalReason, string>> = {
  'unverified-email': 'Your account at the provider has no verified email address. Verify it there, then try again.',
  'email-owner-unverified':
    'An account already uses this email address, but the address is not verified. Log in with your password, then link the provider from your account page.',
  'registration-closed': 'No account uses this email address.',
  'linked-to-another-user': 'This provider account is already linked to another user.',
  'provider-already-linked': 'Another account at this provider is already linked to this user.',
  'own-email-unverified': 'Verify your email address before linking an account.',
  'not-linked-to-you': 'This provider account is not linked to yours.',
  'already-logged-in': 'You are already logged in.',
  'visitor-changed': TRY_AGAIN,
  'state-refused': TRY_AGAIN,
  denied: TRY_AGAIN,
  failed: TRY_AGAIN,
};

export const UNLINK_MESSAGES: Readonly<Record<UnlinkRefusalReason, string>> = {
  'not-linked': 'This provider is not linked to your account.',
  'only-way-to-log-in': 'This is your only way to log in. Set a password or link another account first.',
};

/** What a success tells the visitor; a plain login or confirmation says nothing. */
export const SUCCESS_MESSAGES = {
  linked: 'The account is linked.',
  alreadyLinked: 'This account is already linked to yours.',
  unlinked: 'The account is unlinked.',
} as const;

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

/** A toast for the next page. */
export interface Notice {
  readonly level: 'success' | 'info' | 'error';
  readonly message: string;
}

export interface SignInRefused {
  readonly kind: 'refused';
  readonly reason: SignInRefusalReason;
  readonly log: 'warn' | 'info';
  readonly landing: Landing;
  readonly notice: Notice;
  /** Nothing happened, so nothing is told. */
  readonly events: readonly [];
}

export function signInRefused(reason: SignInRefusalReason, landing: Landing): SignInRefused {
  return {
    kind: 'refused',
    reason,
    log: WARN_REASONS.has(reason) ? 'warn' : 'info',
    landing,
    notice: { level: 'error', message: SIGN_IN_MESSAGES[reason] },
    events: [],
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
