import { normalizeEmail } from './email.js';
import { MisuseError } from '../shared/errors.js';

/** What a user record holds. `passwordHash` is null for users made by a social login. */
export interface UserProps {
  id: number;
  name: string;
  email: string;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  /**
   * Raised whenever every other session of the user must end (a password change, 'log out
   * other devices'), only by `UserRepository.raiseSessionEpoch`, atomically; `save` never
   * writes it, so a stale copy saved later cannot bring ended sessions back. A session remembers the epoch it was made in and dies once it is lower,
   * which also kills copies of old cookie sessions that no server-side store could delete.
   */
  sessionEpoch: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewUser = Omit<UserProps, 'id'>;

export const NAME_MAX_LENGTH = 255;

export type InvalidProfile = { kind: 'invalid'; field: 'name' | 'email'; reason: string };

export type NewUserCheck = { kind: 'valid'; user: NewUser } | InvalidProfile;

/** A name and an address as stored: trimmed, the address in its canonical spelling. */
function checkProfile(input: { name: string; email: string }): { kind: 'valid'; name: string; email: string } | InvalidProfile {
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
  return { kind: 'valid', name, email: email.email };
}

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
  const profile = checkProfile(input);
  if (profile.kind === 'invalid') return profile;
  return {
    kind: 'valid',
    user: {
      name: profile.name,
      email: profile.email,
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

  /**
   * A new name and address (the account page). A different address is unverified until its
   * own link is followed: the old address's proof says nothing about the new one.
   */
  changeProfile(input: { name: string; email: string }, now: Date): { kind: 'changed'; emailChanged: boolean } | InvalidProfile {
    const profile = checkProfile(input);
    if (profile.kind === 'invalid') return profile;
    const emailChanged = profile.email !== this.email;
    if (profile.name === this.name && !emailChanged) return { kind: 'changed', emailChanged };
    this.name = profile.name;
    if (emailChanged) {
      this.email = profile.email;
      this.emailVerifiedAt = null;
    }
    this.updatedAt = now;
    return { kind: 'changed', emailChanged };
  }

  /** A new password (its hash, already checked against the policy and hashed by the caller). */
  setPasswordHash(hash: string, now: Date): void {
    if (hash === '') throw new MisuseError('users.empty-password-hash', 'A password hash must not be empty; a user without a password has null');
    this.passwordHash = hash;
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
