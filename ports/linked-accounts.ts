import type { LinkedAccountData } from '../domain/oauth/callback-outcome.js';
import type { NewUser, User } from '../domain/users/user.js';

/** One row of `oauth_accounts`: a provider account tied to one user. Never a token. */
export interface LinkedAccount extends LinkedAccountData {
  readonly userId: number;
  /** When it was linked: the account card's 'since'. */
  readonly createdAt: Date;
  /** When the profile data was last refreshed by a sign-in. */
  readonly updatedAt: Date;
}

export type LinkResult =
  | { readonly kind: 'linked'; readonly account: LinkedAccount }
  /**
   * A unique key refused the row: the provider account is linked to a user already, or the
   * user already has an account at this provider. Two racing callbacks end here, not in a 500.
   */
  | { readonly kind: 'taken' };

export type RegisterAndLinkResult =
  | { readonly kind: 'registered'; readonly user: User; readonly account: LinkedAccount }
  /** Someone registered the address meanwhile: nothing was written. */
  | { readonly kind: 'duplicate-email' }
  /** The provider account was linked meanwhile: nothing was written (not even the user). */
  | { readonly kind: 'taken' };

export type UnlinkResult =
  | { readonly kind: 'unlinked' }
  /** The user has no account at this provider. */
  | { readonly kind: 'not-linked' }
  /** It is the user's last way in (no password, no other enabled provider linked): nothing changed. */
  | { readonly kind: 'only-way-to-log-in' };

/**
 * `oauth_accounts`. The database enforces both unique keys (provider + provider user id; user
 * + provider), so the rules hold under races; every write is one statement or one transaction.
 */
export interface LinkedAccounts {
  findByProviderAccount(provider: string, providerUserId: string): Promise<LinkedAccount | null>;
  /** The user's links, in the order they were made. */
  listOfUser(userId: number): Promise<LinkedAccount[]>;
  /** Every link, by user then provider (`fwx oauth:list`), at most `limit`. */
  list(page: { limit: number; offset: number }): Promise<LinkedAccount[]>;
  /** Linking to a user who does not exist is a caller's bug: it throws (the foreign key). */
  link(userId: number, account: LinkedAccountData, now: Date): Promise<LinkResult>;
  /** A later sign-in stores what the provider says now (address, name, picture); the link and its 'since' stay. */
  refresh(account: LinkedAccountData, now: Date): Promise<void>;
  /** A new user (no password, address verified) and their first link, in one transaction: both or neither. */
  registerAndLink(user: NewUser, account: LinkedAccountData, now: Date): Promise<RegisterAndLinkResult>;
  /**
   * Removes the user's link at `provider` unless that leaves no way in: the user has a password,
   * or another link at one of `enabledProviders`. Checked and done in one transaction that
   * holds the user (a row lock on PostgreSQL, the write lock on SQLite), so two unlinks racing
   * for a password-less user's two providers cannot both pass: one statement alone is not
   * enough under READ COMMITTED, where each DELETE still sees the other's row.
   */
  unlink(userId: number, provider: string, enabledProviders: readonly string[]): Promise<UnlinkResult>;
}
