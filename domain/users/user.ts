import { normalizeEmail } from './email.js';

/** What a user record holds. `passwordHash` is null for users made by a social login. */
export interface UserProps {
  id: number;
  name: string;
  email: string;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  /**
   * Raised whenever every other session of the user must end (a password change, 'log out
   * other devices'). A session remembers the epoch it was made in and dies once it is lower,
   * which also kills copies of old cookie sessions that no server-side store could delete.
   */
  sessionEpoch: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewUser = Omit<UserProps, 'id'>;

export const NAME_MAX_LENGTH = 255;

export type NewUserCheck =
  | { kind: 'valid'; user: NewUser }
  | { kind: 'invalid'; field: 'name' | 'email'; reason: string };

/**
 * Checks and normalises the data of a user about to be created. Time comes in as an
 * argument: the domain never reads the clock.
 */
export function newUser(input: {
  name: string;
  email: string;
  passwordHash: string | null;
  verified: boolean;
  now: Date;
}): NewUserCheck {
  const name = input.name.trim();
  if (name === '') return { kind: 'invalid', field: 'name', reason: 'is required' };
  // Counted in characters (code points), as a person counts them, like the password policy.
  if ([...name].length > NAME_MAX_LENGTH) {
    return { kind: 'invalid', field: 'name', reason: `must be at most ${NAME_MAX_LENGTH} characters` };
  }
  const email = normalizeEmail(input.email);
  if (email.kind === 'invalid') {
    const reasons = { empty: 'is required', 'too-long': 'is too long', malformed: 'is not a valid email address' };
    return { kind: 'invalid', field: 'email', reason: reasons[email.reason] };
  }
  return {
    kind: 'valid',
    user: {
      name,
      email: email.email,
      passwordHash: input.passwordHash === '' ? null : input.passwordHash,
      emailVerifiedAt: input.verified ? input.now : null,
      sessionEpoch: 0,
      createdAt: input.now,
      updatedAt: input.now,
    },
  };
}

/**
 * A user as the rules see it. Fields are public so that persistence mappings can hydrate the
 * class without decorators; state changes go through the methods, which keep the invariants.
 */
export class User implements UserProps {
  id!: number;
  name!: string;
  email!: string;
  passwordHash!: string | null;
  emailVerifiedAt!: Date | null;
  sessionEpoch!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static restore(props: UserProps): User {
    return Object.assign(new User(), props);
  }

  /** A user made by a social login has no password: no typed password ever matches. */
  hasPassword(): boolean {
    return this.passwordHash !== null && this.passwordHash !== '';
  }

  isVerified(): boolean {
    return this.emailVerifiedAt !== null;
  }

  /** Idempotent: verifying twice keeps the first moment. */
  markVerified(now: Date): void {
    if (this.emailVerifiedAt !== null) return;
    this.emailVerifiedAt = now;
    this.updatedAt = now;
  }

  /** A new password (its hash, already checked against the policy and hashed by the caller). */
  setPasswordHash(hash: string, now: Date): void {
    if (hash === '') throw new TypeError('A password hash must not be empty; a user without a password has null');
    this.passwordHash = hash;
    this.updatedAt = now;
  }

  /** Ends every other session of the user (see `sessionEpoch`). */
  endOtherSessions(now: Date): void {
    this.sessionEpoch += 1;
    this.updatedAt = now;
  }

  toProps(): UserProps {
    return {
      id: this.id,
      name: this.name,
      email: this.email,
      passwordHash: this.passwordHash,
      emailVerifiedAt: this.emailVerifiedAt,
      sessionEpoch: this.sessionEpoch,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
    };
  }
}
