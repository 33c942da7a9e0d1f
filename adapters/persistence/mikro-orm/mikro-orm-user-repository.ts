import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityDictionary, MikroORM } from '@mikro-orm/core';
import { normalizeEmail } from '../../../domain/users/email.js';
import { User } from '../../../domain/users/user.js';
import type { NewUser } from '../../../domain/users/user.js';
import type { AddUserResult, SaveUserResult, UserRepository } from '../../../ports/user-repository.js';

/**
 * Users in table `users`. Every call works in its own forked entity manager and writes with
 * native statements, so a `User` handed out is a plain value: changing it changes nothing
 * until `save`, exactly like the in-memory adapter.
 */
export class MikroOrmUserRepository implements UserRepository {
  constructor(private readonly orm: MikroORM) {}

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
   * The two lookups every signed-in request makes. A plain statement mapped by the ORM costs
   * about a quarter of `findOne`, whose query building dominates (bench/user-lookup.bench.ts).
   */
  private async findOneWhere(column: 'id' | 'email', value: number | string): Promise<User | null> {
    const em = this.orm.em.fork();
    const rows = (await em.getConnection().execute(`SELECT * FROM users WHERE ${column} = ? LIMIT 1`, [value])) as EntityDictionary<User>[];
    return rows[0] === undefined ? null : em.map(User, rows[0]);
  }
}
