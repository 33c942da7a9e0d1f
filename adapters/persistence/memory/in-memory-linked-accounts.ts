import type { LinkedAccountData } from '../../../domain/oauth/callback-outcome.js';
import type { NewUser } from '../../../domain/users/user.js';
import type { LinkedAccount, LinkedAccounts, LinkResult, RegisterAndLinkResult, UnlinkResult } from '../../../ports/linked-accounts.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/**
 * `oauth_accounts` in memory, for unit tests and embedding without a database. Users live in
 * the user repository it is given (the same one the use cases get), so `registerAndLink` makes
 * a user that repository finds, and `unlink` sees the user's password. Like SQL it enforces
 * both unique keys, and the links of a deleted user go with them (the FK's cascade), checked
 * on every call. Each change is checked and made after the call's last `await`, so it is as
 * atomic as the statements it stands in for.
 */
export class InMemoryLinkedAccounts implements LinkedAccounts {
  /** In the order they were made, like the table's ids. */
  private rows: LinkedAccount[] = [];
  /** Provider accounts a `registerAndLink` is writing: what SQL's uncommitted row holds. */
  private readonly reserved = new Set<string>();

  constructor(private readonly users: UserRepository) {}

  async findByProviderAccount(provider: string, providerUserId: string): Promise<LinkedAccount | null> {
    await this.dropLinksOfDeletedUsers();
    const row = this.rows.find((link) => link.provider === provider && link.providerUserId === providerUserId);
    return row === undefined ? null : copy(row);
  }

  async listOfUser(userId: number): Promise<LinkedAccount[]> {
    await this.dropLinksOfDeletedUsers();
    return this.rows.filter((link) => link.userId === userId).map(copy);
  }

  async list(page: { limit: number; offset: number }): Promise<LinkedAccount[]> {
    await this.dropLinksOfDeletedUsers();
    const sorted = [...this.rows].sort((a, b) => a.userId - b.userId || compareText(a.provider, b.provider));
    return sorted.slice(page.offset, page.offset + page.limit).map(copy);
  }

  async link(userId: number, account: LinkedAccountData, now: Date): Promise<LinkResult> {
    await this.dropLinksOfDeletedUsers();
    // SQL refuses a link to no user with a foreign-key error; a programmer's mistake, not a value.
    if ((await this.users.findById(userId)) === null) throw new FrameworkError('oauth.no-user-to-link', `No user ${userId} to link a provider account to`);
    if (this.taken(account) || this.rows.some((link) => link.userId === userId && link.provider === account.provider)) return { kind: 'taken' };
    return { kind: 'linked', account: copy(this.insert(userId, account, now)) };
  }

  async refresh(account: LinkedAccountData, now: Date): Promise<void> {
    await this.dropLinksOfDeletedUsers();
    this.rows = this.rows.map((link) =>
      link.provider === account.provider && link.providerUserId === account.providerUserId
        ? { ...link, email: account.email, name: account.name, pictureUrl: account.pictureUrl, updatedAt: new Date(now) }
        : link,
    );
  }

  async registerAndLink(user: NewUser, account: LinkedAccountData, now: Date): Promise<RegisterAndLinkResult> {
    await this.dropLinksOfDeletedUsers();
    if (this.taken(account)) return { kind: 'taken' };
    // Held across the user's insert, as the transaction holds the row's unique key: a link of
    // this provider account meanwhile is refused, and the user is never made for nothing.
    const key = keyOf(account);
    this.reserved.add(key);
    try {
      const added = await this.users.add(user);
      if (added.kind === 'duplicate-email') return { kind: 'duplicate-email' };
      return { kind: 'registered', user: added.user, account: copy(this.insert(added.user.id, account, now)) };
    } finally {
      this.reserved.delete(key);
    }
  }

  async unlink(userId: number, provider: string, enabledProviders: readonly string[]): Promise<UnlinkResult> {
    await this.dropLinksOfDeletedUsers();
    const user = await this.users.findById(userId);
    // From here on no `await`: two unlinks of one user's two providers cannot both pass.
    const target = this.rows.find((link) => link.userId === userId && link.provider === provider);
    if (target === undefined) return { kind: 'not-linked' };
    const otherWayIn =
      user?.hasPassword() === true ||
      this.rows.some((link) => link.userId === userId && link.provider !== provider && enabledProviders.includes(link.provider));
    if (!otherWayIn) return { kind: 'only-way-to-log-in' };
    this.rows = this.rows.filter((link) => link !== target);
    return { kind: 'unlinked' };
  }

  private taken(account: LinkedAccountData): boolean {
    const key = keyOf(account);
    return this.reserved.has(key) || this.rows.some((link) => keyOf(link) === key);
  }

  private insert(userId: number, account: LinkedAccountData, now: Date): LinkedAccount {
    const { provider, providerUserId, email, name, pictureUrl } = account;
    const row = { userId, provider, providerUserId, email, name, pictureUrl, createdAt: new Date(now), updatedAt: new Date(now) };
    this.rows = [...this.rows, row];
    return row;
  }

  /** The foreign key's ON DELETE CASCADE: the user repository knows nothing of these rows. */
  private async dropLinksOfDeletedUsers(): Promise<void> {
    const gone = new Set<number>();
    for (const userId of new Set(this.rows.map((link) => link.userId))) {
      if ((await this.users.findById(userId)) === null) gone.add(userId);
    }
    if (gone.size > 0) this.rows = this.rows.filter((link) => !gone.has(link.userId));
  }
}

function keyOf(account: Pick<LinkedAccountData, 'provider' | 'providerUserId'>): string {
  return JSON.stringify([account.provider, account.providerUserId]);
}

/** A copy, as a database hands out: changing it changes nothing stored. */
function copy(row: LinkedAccount): LinkedAccount {
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
}

/** Plain code-unit order: provider names are lower-case ASCII, which every collation sorts alike. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
