import { readPendingLogin } from '../../domain/auth/pending-login.js';
import { TWO_FACTOR_LOCK, twoFactorLockKey, twoFactorLockState } from '../../domain/auth/two-factor-lock.js';
import { currentWindow } from '../../domain/http/rate-limits/rate-limit.js';
import type { User } from '../../domain/users/user.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import type { SecondStep, SecondStepAnswer } from '../../ports/second-step.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type ChallengeOutcome =
  /** Remove the pending login from the session and log `user` in, remembered if asked. */
  | { kind: 'passed'; user: User; remember: boolean; provider: string | null; via: SecondStepAnswer['kind'] }
  /** Wrong answer: the pending login stays, the page asks again. */
  | { kind: 'invalid' }
  /** Too many wrong answers for this user this minute; nothing was checked. */
  | { kind: 'locked'; retryAfterSeconds: number }
  /**
   * Nothing to complete: no pending login, a damaged or expired one, a user deleted meanwhile,
   * or one whose sessions were ended (password reset). Remove it and send the visitor to log in.
   */
  | { kind: 'expired' };

/**
 * The challenge page's check: completes the login waiting in the session when the answer
 * passes the second step. Wrong answers count per user on the shared counters (five a minute),
 * so a thief with the password cannot try the million codes at any useful speed.
 */
export class ChallengeTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly secondStep: SecondStep,
    private readonly counters: CacheStore,
    private readonly clock: Clock,
  ) {}

  /** `pending` is what the session holds under `PENDING_LOGIN_KEY`, as read (it is checked here). */
  async execute(input: { pending: unknown; answer: SecondStepAnswer }): Promise<ChallengeOutcome> {
    const now = this.clock.now();
    const read = readPendingLogin(input.pending, now);
    if (read.kind !== 'pending') return { kind: 'expired' };
    const { login } = read;
    const user = await this.users.findById(login.userId);
    if (user === null || user.sessionEpoch !== login.epoch) return { kind: 'expired' };

    // A ticket first, atomically, as AttemptLogin does: concurrent guesses cannot slip in
    // while earlier ones are being checked.
    const key = twoFactorLockKey(user.id, now);
    const ticket = await this.counters.increment(key, new Date(currentWindow(TWO_FACTOR_LOCK, now).resetsAt));
    const lock = twoFactorLockState(ticket - 1, now);
    if (lock.kind === 'locked') return { kind: 'locked', retryAfterSeconds: lock.retryAfterSeconds };

    const result = await this.secondStep.verify(user, input.answer);
    if (result.kind === 'invalid') {
      // Turned off meanwhile: the password alone now logs in, so this login starts again.
      return (await this.secondStep.required(user)) ? { kind: 'invalid' } : { kind: 'expired' };
    }
    await this.counters.forget(key);
    return { kind: 'passed', user, remember: login.remember, provider: login.provider, via: result.via };
  }
}
