import type { LinkedAccountData } from '../../../domain/oauth/callback-outcome.js';
import { User } from '../../../domain/users/user.js';
import type { NewUser } from '../../../domain/users/user.js';
import type { LinkedAccount, LinkedAccounts, LinkResult, RegisterAndLinkResult, UnlinkResult } from '../../../ports/linked-accounts.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql, SqlSession } from './raw-sql.js';

interface Row {
  user_id: number | string;
  provider: string;
  provider_user_id: string;
  email: string | null;
  name: string | null;
  avatar_url: string | null;
  created_at: DateColumn;
  updated_at: DateColumn;
}

const COLUMNS = 'user_id, provider, provider_user_id, email, name, avatar_url, created_at, updated_at';

/**
 * `ON CONFLICT DO NOTHING` without a target covers every unique key (both of this table, both
 * address indexes of `users`) on both engines: a refused row is an empty RETURNING, never an
 * exception, and on PostgreSQL it does not abort the surrounding transaction. A racing insert
 * waits for the other one to commit or roll back first, so the answer is always the final one.
 */
const INSERT_LINK = `INSERT INTO oauth_accounts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`;

/**
 * `oauth_accounts` in plain SQL on a pooled connection per call, like the session store: the
 * rows are small and read once per sign-in, so the ORM's unit of work would only add cost.
 */
export class SqlLinkedAccounts implements LinkedAccounts {
  constructor(private readonly raw: RawSql) {}

  async findByProviderAccount(provider: string, providerUserId: string): Promise<LinkedAccount | null> {
    const rows = await this.select('WHERE provider = ? AND provider_user_id = ?', [provider, providerUserId]);
    return rows[0] ?? null;
  }

  listOfUser(userId: number): Promise<LinkedAccount[]> {
    // Ids grow with every insert: their order is the order the links were made.
    return this.select('WHERE user_id = ? ORDER BY id', [userId]);
  }

  list(page: { limit: number; offset: number }): Promise<LinkedAccount[]> {
    return this.select('ORDER BY user_id, provider LIMIT ? OFFSET ?', [Math.max(0, page.limit), Math.max(0, page.offset)]);
  }

  async link(userId: number, account: LinkedAccountData, now: Date): Promise<LinkResult> {
    const inserted = await this.raw.session((sql) => insertLink(sql, userId, account, now));
    return inserted ? { kind: 'linked', account: linked(userId, account, now) } : { kind: 'taken' };
  }

  async refresh(account: LinkedAccountData, now: Date): Promise<void> {
    await this.raw.session((sql) =>
      sql.query('UPDATE oauth_accounts SET email = ?, name = ?, avatar_url = ?, updated_at = ? WHERE provider = ? AND provider_user_id = ?', [
        account.email,
        account.name,
        account.pictureUrl,
        now,
        account.provider,
        account.providerUserId,
      ]),
    );
  }

  registerAndLink(user: NewUser, account: LinkedAccountData, now: Date): Promise<RegisterAndLinkResult> {
    return this.transaction<RegisterAndLinkResult>(async (sql) => {
      // The columns `MikroOrmUserRepository.add` writes, as the domain's `newUser` made them.
      const [row] = await sql.query<{ id: number | string }>(
        `INSERT INTO users (name, email, password, email_verified_at, session_epoch, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
        [user.name, user.email, user.passwordHash, user.emailVerifiedAt, user.sessionEpoch, user.createdAt, user.updatedAt],
      );
      if (row === undefined) return { commit: false, result: { kind: 'duplicate-email' } };
      const id = Number(row.id); // PostgreSQL hands a bigint back as text.
      // Taken: the rollback takes the user along, so a lost race leaves no password-less stray.
      if (!(await insertLink(sql, id, account, now))) return { commit: false, result: { kind: 'taken' } };
      return { commit: true, result: { kind: 'registered', user: User.restore({ ...user, id }), account: linked(id, account, now) } };
    });
  }

  unlink(userId: number, provider: string, enabledProviders: readonly string[]): Promise<UnlinkResult> {
    const others = enabledProviders.filter((name) => name !== provider);
    // No other enabled provider: only a password keeps a way in (and `IN ()` is not SQL on PostgreSQL).
    const otherLink =
      others.length === 0
        ? ''
        : ` OR EXISTS (SELECT 1 FROM oauth_accounts other WHERE other.user_id = ? AND other.provider IN (${others.map(() => '?').join(', ')}))`;
    return this.transaction<UnlinkResult>(async (sql) => {
      // READ COMMITTED checks each statement against a snapshot from its start, so two unlinks
      // of one user's two providers would each still see the other's link and both delete it.
      // Locking the user's row first queues them: the second one's DELETE then sees the first's.
      // SQLite has one writer, and its statement is atomic on its own.
      if (this.raw.engine === 'postgres') await sql.query('SELECT id FROM users WHERE id = ? FOR NO KEY UPDATE', [userId]);
      const deleted = await sql.query(
        `DELETE FROM oauth_accounts WHERE user_id = ? AND provider = ?
         AND (EXISTS (SELECT 1 FROM users WHERE id = ? AND password IS NOT NULL AND password <> '')${otherLink}) RETURNING id`,
        [userId, provider, userId, ...(others.length === 0 ? [] : [userId, ...others])],
      );
      if (deleted.length > 0) return { commit: true, result: { kind: 'unlinked' } };
      const [kept] = await sql.query('SELECT id FROM oauth_accounts WHERE user_id = ? AND provider = ?', [userId, provider]);
      return { commit: false, result: { kind: kept === undefined ? 'not-linked' : 'only-way-to-log-in' } };
    });
  }

  private async select(where: string, params: readonly (string | number)[]): Promise<LinkedAccount[]> {
    const rows = await this.raw.session((sql) => sql.query<Row>(`SELECT ${COLUMNS} FROM oauth_accounts ${where}`, params));
    return rows.map(fromRow);
  }

  /** One transaction on one connection; `commit: false` rolls back whatever `work` wrote. */
  private transaction<T>(work: (sql: SqlSession) => Promise<{ commit: boolean; result: T }>): Promise<T> {
    return this.raw.session(async (sql) => {
      // IMMEDIATE takes SQLite's write lock before reading, so another process waits its turn.
      await sql.exec(this.raw.engine === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN');
      let outcome: { commit: boolean; result: T };
      try {
        outcome = await work(sql);
      } catch (error) {
        // The first failure is the one worth reporting; SQLite may have rolled back already.
        await sql.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await sql.exec(outcome.commit ? 'COMMIT' : 'ROLLBACK');
      return outcome.result;
    });
  }
}

async function insertLink(sql: SqlSession, userId: number, account: LinkedAccountData, now: Date): Promise<boolean> {
  const rows = await sql.query(INSERT_LINK, [userId, account.provider, account.providerUserId, account.email, account.name, account.pictureUrl, now, now]);
  return rows.length > 0;
}

function linked(userId: number, account: LinkedAccountData, now: Date): LinkedAccount {
  const { provider, providerUserId, email, name, pictureUrl } = account;
  return { userId, provider, providerUserId, email, name, pictureUrl, createdAt: new Date(now), updatedAt: new Date(now) };
}

function fromRow(row: Row): LinkedAccount {
  return {
    userId: Number(row.user_id),
    provider: row.provider,
    providerUserId: row.provider_user_id,
    email: row.email,
    name: row.name,
    pictureUrl: row.avatar_url,
    createdAt: dateFromColumn(row.created_at),
    updatedAt: dateFromColumn(row.updated_at),
  };
}
