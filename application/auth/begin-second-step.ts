import { pendingLogin, pendingLoginToJson } from '../../domain/auth/pending-login.js';
import type { PendingLoginJson } from '../../domain/auth/pending-login.js';
import type { User } from '../../domain/users/user.js';
import type { Clock } from '../../ports/clock.js';
import type { SecondStep } from '../../ports/second-step.js';

export type BeginSecondStepResult =
  /** Log the user in now. */
  | { kind: 'not-required' }
  /**
   * Do not log in: store `pending` in the session under `PENDING_LOGIN_KEY` and send the
   * visitor to the challenge page (`/two-factor-challenge`).
   */
  | { kind: 'required'; pending: PendingLoginJson };

/**
 * Asked by every login once its first step passed (a password, or a provider's callback for a
 * social login): whether the user must pass the second step before the session is theirs.
 */
export class BeginSecondStep {
  constructor(
    private readonly secondStep: SecondStep,
    private readonly clock: Clock,
  ) {}

  async execute(input: { user: User; remember: boolean; provider: string | null }): Promise<BeginSecondStepResult> {
    if (!(await this.secondStep.required(input.user))) return { kind: 'not-required' };
    const pending = pendingLogin({
      userId: input.user.id,
      epoch: input.user.sessionEpoch,
      remember: input.remember,
      provider: input.provider,
      now: this.clock.now(),
    });
    return { kind: 'required', pending: pendingLoginToJson(pending) };
  }
}
