import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/core';
import { normalizeEmail } from '../../../domain/users/email.js';
import { User } from '../../../domain/users/user.js';
import type { NewUser } from '../../../domain/users/user.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';
import type { AddUserResult, SaveUserResult, UserRepository } from '../../../ports/user-repository.js';

/**
 * Users in table `users`. Every call works in its own forked entity manager and writes with
 * native statements, so a `User` handed out is a plain value: changing it changes nothing
 * until `save`, exactly like the in-memory adapter.
 */
export class MikroOrmUserRepository implements UserRepository {
  constructor(
    private readonly orm: MikroORM,
    private readonly raw: RawSql,
  ) {}

  async add(user: NewUser): Promise<AddUserResult> {
    try {
      const id = await this.orm.em.fork().insert(User, { ...user });
      return { kind: 'added', user: User.restore({ ...user, id: Number(id) }) };
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return { kind: 'duplicate-email' };
      throw error;
    }
  }

  async save(user: User): Promise<SaveUserResult> {
    // The session epoch is raised only by raiseSessionEpoch: writing this copy's value could
    // lower it again and bring ended sessions back.
    const { id, sessionEpoch: _epoch, ...fields } = user.toProps();
    try {
      await this.orm.em.fork().nativeUpdate(User, { id }, fields);
      return { kind: 'saved' };
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return { kind: 'duplicate-email' };
      throw error;
    }
  }

  findById(id: number): Promise<User | null> {
    return this.findOneWhere('id', id);
  }

  findByEmail(email: string): Promise<User | null> {
    const checked = normalizeEmail(email);
    return checked.kind === 'invalid' ? Promise.resolve(null) : this.findOneWhere('email', checked.email);
  }

  async list(page: { limit: number; offset: number }): Promise<User[]> {
    return this.orm.em.fork().find(User, {}, { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset });
  }

  async count(): Promise<number> {
    return this.orm.em.fork().count(User, {});
  }

  async raiseSessionEpoch(id: number, now: Date): Promise<number | null> {
    // One statement: a read-then-save would let two concurrent raises count as one.
    const connection = this.orm.em.fork().getConnection();
    const rows = (await connection.execute('UPDATE users SET session_epoch = session_epoch + 1, updated_at = ? WHERE id = ? RETURNING session_epoch', [
      connection.getPlatform().processDateProperty(now) as Date,
      id,
    ])) as { session_epoch: number | string }[];
    return rows[0] === undefined ? null : Number(rows[0].session_epoch);
  }

  async remove(id: number): Promise<boolean> {
    return (await this.orm.em.fork().nativeDelete(User, { id })) > 0;
  }

  /**
   * The two lookups every signed-in request makes (the user stage loads the session's user on
   * each one). A plain statement on a pooled connection, mapped here: the ORM's `findOne` costs
   * about sixteen times that and even `execute` + `em.map` four times (bench/user-lookup.bench.ts),
   * which was most of the cost of a signed-in page.
   */
  private findOneWhere(column: 'id' | 'email', value: number | string): Promise<User | null> {
    return this.raw.first<UserRow>(USER_BY[column], [value]).then((row) => (row === undefined ? null : userFromRow(row)));
  }
}

const USER_COLUMNS = 'id, name, email, password, email_verified_at, session_epoch, created_at, updated_at';
/** The two lookups' SQL, written once: the same text each time is the prepared statement's key. */
const USER_BY = {
  id: `SELECT ${USER_COLUMNS} FROM users WHERE id = ? LIMIT 1`,
  email: `SELECT ${USER_COLUMNS} FROM users WHERE email = ? LIMIT 1`,
} as const;

interface UserRow {
  id: number | string;
  name: string;
  email: string;
  password: string | null;
  email_verified_at: DateColumn | null;
  session_epoch: number | string;
  created_at: DateColumn;
  updated_at: DateColumn;
}

/** The same mapping as `UserSchema`, for rows read without the ORM (ids and epochs may come as text from PostgreSQL). */
function userFromRow(row: UserRow): User {
  return User.restore({
    id: Number(row.id),
    name: row.name,
    email: row.email,
    passwordHash: row.password,
    emailVerifiedAt: row.email_verified_at === null ? null : dateFromColumn(row.email_verified_at),
    sessionEpoch: Number(row.session_epoch),
    createdAt: dateFromColumn(row.created_at),
    updatedAt: dateFromColumn(row.updated_at),
  });
}
