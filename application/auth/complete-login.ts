import { LoggedIn } from '../../domain/auth/events.js';
import { PENDING_LOGIN_KEY } from '../../domain/auth/pending-login.js';
import { LoggedInWith } from '../../domain/oauth/events.js';
import type { Session } from '../../domain/session/session.js';
import type { User } from '../../domain/users/user.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { BeginSecondStep } from './begin-second-step.js';
import { loginSession } from './session-login.js';
import type { SessionLoginServices } from './session-login.js';

export interface FirstStepPassed {
  /** The visitor's session: the login changes it (and the HTTP layer stores it afterwards). */
  readonly session: Session;
  readonly user: User;
  readonly remember: boolean;
  /** Null for the password form and the register form; the provider's name for a social login. */
  readonly provider: string | null;
}

export type LoginCompletion =
  /** The session is the user's now; `LoggedIn` (after a social login's `LoggedInWith`) was published. */
  | { readonly kind: 'signed-in'; readonly user: User }
  /**
   * The user has a second step on: the session holds the pending login under
   * `PENDING_LOGIN_KEY` and the visitor stays a guest until `/two-factor-challenge` passes.
   */
  | { readonly kind: 'second-step' };

/**
 * The one owner of a login's end, whatever its first step was (the password form, the register
 * form, a provider's callback) and of the second step's end (the two-factor challenge). It
 * decides whether a second step waits, runs the session transition (a new session id and CSRF
 * token, 'remember me' lifetime) and publishes `LoggedInWith`/`LoggedIn`, so every way in
 * tells listeners the same things in the same order:
 *
 * - password, no second step: `LoggedIn(password)`
 * - provider, no second step: `LoggedInWith(provider, false)`, `LoggedIn(provider)`
 * - provider, second step: `LoggedInWith(provider, true)` now, `LoggedIn(provider)` once passed
 * - password, second step: `LoggedIn(password)` once passed
 */
export class CompleteLogin {
  constructor(
    private readonly beginSecondStep: BeginSecondStep,
    private readonly events: EventBus,
    private readonly session: SessionLoginServices,
  ) {}

  /** The first step passed: log in now, or leave the login waiting for the second step. */
  async afterFirstStep(input: FirstStepPassed): Promise<LoginCompletion> {
    const { session, user, remember, provider } = input;
    const begun = await this.beginSecondStep.execute({ user, remember, provider });
    if (begun.kind === 'required') {
      session.put(PENDING_LOGIN_KEY, begun.pending);
      // The pending login is half a sign-in: a session id planted before it must not carry it.
      session.renewId();
    }
    const waits = begun.kind === 'required';
    if (provider !== null) await this.events.publish(new LoggedInWith(user.id, provider, waits));
    if (waits) return { kind: 'second-step' };
    return this.signIn(input);
  }

  /** `ChallengeTwoFactor` passed: the pending login leaves the session and the user is logged in. */
  async afterSecondStep(input: FirstStepPassed): Promise<LoginCompletion> {
    input.session.remove(PENDING_LOGIN_KEY);
    return this.signIn(input);
  }

  private async signIn({ session, user, remember, provider }: FirstStepPassed): Promise<LoginCompletion> {
    loginSession(session, user, remember, this.session);
    await this.events.publish(new LoggedIn(user.id, remember, provider ?? 'password'));
    return { kind: 'signed-in', user };
  }
}
