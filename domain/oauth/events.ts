import { MisuseError } from '../shared/errors.js';
/**
 * The OAuth module's events (the spec's Events table). Plain values with ids and the provider's
 * name: never a token, a code or a state. Auth's `Registered` and `LoggedIn` fire beside them.
 */
export class AccountLinked {
  constructor(
    readonly userId: number,
    readonly provider: string,
  ) {}
}

export class AccountUnlinked {
  constructor(
    readonly userId: number,
    readonly provider: string,
  ) {}
}

export class LoggedInWith {
  constructor(
    readonly userId: number,
    readonly provider: string,
    /** True when the login waits at the second step (the two-factor challenge). */
    readonly secondStep: boolean,
  ) {}
}

export type OAuthEvent = AccountLinked | AccountUnlinked | LoggedInWith;

/** A row of the activity log, as the Audit module writes it; the client IP, request id and time are the caller's. */
export interface AuditEntry {
  readonly action: 'oauth.linked' | 'oauth.unlinked' | 'oauth.login';
  readonly userId: number;
  readonly data: { readonly provider: string };
}

/** The log entries of the Link state table and of a provider login: the provider goes into `data`. */
export function auditEntry(event: OAuthEvent): AuditEntry {
  const data = { provider: event.provider };
  if (event instanceof AccountLinked) return { action: 'oauth.linked', userId: event.userId, data };
  if (event instanceof AccountUnlinked) return { action: 'oauth.unlinked', userId: event.userId, data };
  if (event instanceof LoggedInWith) return { action: 'oauth.login', userId: event.userId, data };
  // Structural look-alikes (a plain object) are a caller's bug: the class is what says which event it is.
  throw new MisuseError('oauth.not-an-audit-event', 'auditEntry needs an AccountLinked, AccountUnlinked or LoggedInWith');
}
