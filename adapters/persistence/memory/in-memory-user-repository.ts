import { normalizeEmail } from '../../../domain/users/email.js';
import { User } from '../../../domain/users/user.js';
import type { NewUser, UserProps } from '../../../domain/users/user.js';
import type { AddUserResult, SaveUserResult, UserRepository } from '../../../ports/user-repository.js';

/**
 * Users in a Map, for unit tests and for embedding without a database. It hands out copies,
 * so it behaves like a real store: a change is visible only after `save`.
 */
export class InMemoryUserRepository implements UserRepository {
  private readonly rows = new Map<number, UserProps>();
  private nextId = 1;

  add(user: NewUser): Promise<AddUserResult> {
    if (this.idOfEmail(user.email) !== undefined) return Promise.resolve({ kind: 'duplicate-email' });
    const props = { ...user, id: this.nextId++ };
    this.rows.set(props.id, props);
    return Promise.resolve({ kind: 'added', user: User.restore({ ...props }) });
  }

  save(user: User): Promise<SaveUserResult> {
    const owner = this.idOfEmail(user.email);
    if (owner !== undefined && owner !== user.id) return Promise.resolve({ kind: 'duplicate-email' });
    const stored = this.rows.get(user.id);
    // As in SQL: the epoch moves only through raiseSessionEpoch.
    if (stored !== undefined) this.rows.set(user.id, { ...user.toProps(), sessionEpoch: stored.sessionEpoch });
    return Promise.resolve({ kind: 'saved' });
  }

  findById(id: number): Promise<User | null> {
    const row = this.rows.get(id);
    return Promise.resolve(row === undefined ? null : User.restore({ ...row }));
  }

  findByEmail(email: string): Promise<User | null> {
    const id = this.idOfEmail(email);
    return id === undefined ? Promise.resolve(null) : this.findById(id);
  }

  list(page: { limit: number; offset: number }): Promise<User[]> {
    const rows = [...this.rows.values()].sort((a, b) => a.id - b.id).slice(page.offset, page.offset + page.limit);
    return Promise.resolve(rows.map((row) => User.restore({ ...row })));
  }

  count(): Promise<number> {
    return Promise.resolve(this.rows.size);
  }

  raiseSessionEpoch(id: number, now: Date): Promise<number | null> {
    const row = this.rows.get(id);
    if (row === undefined) return Promise.resolve(null);
    const raised = { ...row, sessionEpoch: row.sessionEpoch + 1, updatedAt: now };
    this.rows.set(id, raised);
    return Promise.resolve(raised.sessionEpoch);
  }

  remove(id: number): Promise<boolean> {
    return Promise.resolve(this.rows.delete(id));
  }

  private idOfEmail(email: string): number | undefined {
    const checked = normalizeEmail(email);
    if (checked.kind === 'invalid') return undefined;
    for (const row of this.rows.values()) if (row.email === checked.email) return row.id;
    return undefined;
  }
}
