import type { NewUser, User } from '../domain/users/user.js';

export type AddUserResult = { kind: 'added'; user: User } | { kind: 'duplicate-email' };
export type SaveUserResult = { kind: 'saved' } | { kind: 'duplicate-email' };

/**
 * Users by id and by email. Emails are matched case-insensitively; a second user with the
 * same address is refused as a value (`duplicate-email`), also when two requests race.
 */
export interface UserRepository {
  add(user: NewUser): Promise<AddUserResult>;
  save(user: User): Promise<SaveUserResult>;
  findById(id: number): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** Users in id order. */
  list(page: { limit: number; offset: number }): Promise<User[]>;
  count(): Promise<number>;
  /**
   * Adds one to the user's session epoch in one atomic step (two devices asking at once both
   * count) and returns the new epoch, or null when there is no such user.
   */
  raiseSessionEpoch(id: number, now: Date): Promise<number | null>;
  /** Removes the user and, through the schema, everything that belongs to them. */
  remove(id: number): Promise<boolean>;
}
