import { Registered } from '../../domain/auth/events.js';
import type { User } from '../../domain/users/user.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { CreateUser } from '../users/create-user.js';

/** What `Auth.onRegistered` hooks read when the register form made the account (`provider` is null). */
export interface PasswordRegistration {
  readonly name: string;
  readonly email: string;
  readonly provider: null;
}

export interface RegistrationForm {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  /** `Auth.onRegistered`: runs once the user is stored, before `Registered`. */
  readonly onRegistered?: ((registration: PasswordRegistration) => void | Promise<void>) | null;
}

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

  async execute(input: RegistrationForm): Promise<RegisterResult> {
    const created = await this.createUser.execute({ name: input.name, email: input.email, password: input.password, verified: false });
    if (created.kind !== 'created') return created;
    const user = created.user;
    // The hook first, then the event, as for a social sign-up (docs/decisions.md): listeners of
    // `Registered` see the account as the app's hook finished setting it up.
    if (input.onRegistered) await input.onRegistered({ name: user.name, email: user.email, provider: null });
    await this.events.publish(new Registered(user.id, user.name, user.email, null));
    await this.mail.sendEmailVerification(user);
    return { kind: 'registered', user };
  }
}
