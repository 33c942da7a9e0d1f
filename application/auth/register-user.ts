import { Registered } from '../../domain/auth/events.js';
import type { User } from '../../domain/users/user.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { CreateUser } from '../users/create-user.js';

export type RegisterResult =
  | { kind: 'registered'; user: User }
  | { kind: 'invalid'; field: 'name' | 'email' | 'password'; reason: string }
  | { kind: 'email-taken' };

/**
 * The register form: a new, unverified user with a password, who gets the verification mail.
 * Two registrations racing with one address make one user (the store refuses the second).
 */
export class RegisterUser {
  constructor(
    private readonly createUser: CreateUser,
    private readonly mail: AuthMail,
    private readonly events: EventBus,
  ) {}

  async execute(input: { name: string; email: string; password: string }): Promise<RegisterResult> {
    const created = await this.createUser.execute({ ...input, verified: false });
    if (created.kind !== 'created') return created;
    const user = created.user;
    await this.events.publish(new Registered(user.id, user.name, user.email, null));
    await this.mail.sendEmailVerification(user);
    return { kind: 'registered', user };
  }
}
