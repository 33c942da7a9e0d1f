import type { EndOtherSessions } from '../../../application/users/end-other-sessions.js';
import type { GuardPages } from '../../../domain/http/guards.js';
import type { User } from '../../../domain/users/user.js';
import type { AccessPolicy } from '../../../ports/access-policy.js';
import type { Clock } from '../../../ports/clock.js';
import type { RandomSource } from '../../../ports/random-source.js';
import type { TokenVerifier } from '../../../ports/token-verifier.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { loginSession, newSessionToken } from '../../../application/auth/session-login.js';
import { AuthUser } from './auth-user.js';
import type { SessionAuth } from './request-context.js';
import type { KernelContext } from './context.js';
import { KernelMisuse } from './context.js';

/** What signing in and out needs, fixed when the kernel starts. */
export interface IdentityServices {
  users: UserRepository;
  tokens: TokenVerifier;
  policy: AccessPolicy;
  endOtherSessions: EndOtherSessions;
  clock: Clock;
  random: RandomSource;
  /** REMEMBER_LIFETIME in minutes: the lifetime of a 'remember me' session. */
  rememberLifetimeMinutes: number;
  /** Where guards send visitors (the login page and the others of spec 001's guard table). */
  pages: GuardPages;
}

/**
 * `ctx.auth`: the session transitions of spec 001 for the signed-in user. A login gives a new
 * CSRF token (and, with the database driver, a new session id); 'remember me' gives the
 * session REMEMBER_LIFETIME; a logout ends this device only.
 */
export class Authenticator implements SessionAuth {
  constructor(
    private readonly ctx: KernelContext,
    private readonly services: IdentityServices,
  ) {}

  login(user: User, options: { remember?: boolean } = {}): AuthUser {
    // The same transition `CompleteLogin` runs for the built-in logins; this one publishes
    // nothing, since an app's own login handler decides what it tells.
    loginSession(this.ctx.session, user, options.remember === true, this.services);
    const signedIn = new AuthUser(user, this.services.policy, null, false);
    this.ctx.identify(signedIn);
    return signedIn;
  }

  logout(): void {
    this.ctx.session.logout(newSessionToken(this.services.random));
    this.ctx.identify(null);
  }

  /**
   * Ends every other session of the user (other browsers, copied cookies) and keeps this one:
   * the user's session epoch goes up and this session moves to it.
   */
  async logoutOtherDevices(): Promise<void> {
    const current = this.ctx.user;
    if (current === null || current.viaToken) throw new KernelMisuse('auth.needs-session-user', 'logoutOtherDevices needs a user signed in by the session');
    const ended = await this.services.endOtherSessions.execute(current.id);
    if (ended.kind === 'not-found') {
      this.logout();
      return;
    }
    await this.adoptEpoch(ended.epoch);
  }

  /**
   * A use case raised the user's session epoch (a password change): this session moves to
   * `epoch` and stays signed in, with a new token; the driver forgets the other sessions.
   */
  async adoptEpoch(epoch: number): Promise<void> {
    const current = this.ctx.user;
    if (current === null || current.viaToken) throw new KernelMisuse('auth.needs-session-user', 'adoptEpoch needs a user signed in by the session');
    await this.ctx.sessionDriver?.forgetSessionsOf(current.id);
    const { clock, random } = this.services;
    this.ctx.session.login(current.id, { epoch, now: clock.now(), newToken: newSessionToken(random) });
    current.record.sessionEpoch = epoch;
  }

  /** The user typed their password again: `requirePasswordConfirmed` lets them through for three hours. */
  confirmPassword(): void {
    this.ctx.session.confirmPassword(this.services.clock.now());
  }
}
