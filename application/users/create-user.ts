import { checkPassword } from '../../domain/auth/password-policy.js';
import { newUser } from '../../domain/users/user.js';
import type { User } from '../../domain/users/user.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface CreateUserInput {
  name: string;
  email: string;
  /** Omitted or null: a password-less user, who signs in through a provider or a reset link. */
  password?: string | null;
  verified?: boolean;
}

export type CreateUserResult =
  | { kind: 'created'; user: User }
  | { kind: 'invalid'; field: 'name' | 'email' | 'password'; reason: string }
  | { kind: 'email-taken' };

/** An administrator (or a seeder) creates a user directly, without the registration form. */
export class CreateUser {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateUserInput): Promise<CreateUserResult> {
    const password = input.password ?? null;
    if (password !== null) {
      const check = checkPassword(password);
      if (check.kind === 'unacceptable') return { kind: 'invalid', field: 'password', reason: check.reason };
    }
    // Validate before hashing: Argon2 is deliberately slow, and a bad email should not cost that.
    const checked = newUser({
      name: input.name,
      email: input.email,
      passwordHash: null,
      verified: input.verified ?? false,
      now: this.clock.now(),
    });
    if (checked.kind === 'invalid') return checked;
    const user = password === null ? checked.user : { ...checked.user, passwordHash: await this.hasher.hash(password) };
    const added = await this.users.add(user);
    return added.kind === 'added' ? { kind: 'created', user: added.user } : { kind: 'email-taken' };
  }
}
