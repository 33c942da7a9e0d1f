import type { Logger } from '../../ports/logger.js';

/** A piece of work a request leaves to run once its answer is written. */
export type AfterResponseTask = () => Promise<void>;

/**
 * The work requests leave for after their answers (`ctx.afterResponse`): a mail a visitor
 * should neither wait for nor be able to time (whether 'Forgot your password?' found an account
 * must not show in how long the answer took). Each request's tasks run in order once its answer
 * is on the wire; a failure is logged, never thrown at a request that is already answered.
 * `settled()` is what a server's stop waits for, so a mail is not lost on shutdown, and what the
 * test client waits for, so a test reads the mail its request caused.
 */
export class AfterResponseWork {
  readonly #pending = new Set<Promise<void>>();

  /**
   * Registers the tasks at once (so `settled()` already waits for them) and runs them after
   * `answered` resolves; `scope` wraps each (the dev tools' request inspector, local debugging only).
   */
  schedule(tasks: readonly AfterResponseTask[], options: { answered: Promise<void>; log: Logger; scope?: <T>(run: () => Promise<T>) => Promise<T> }): void {
    if (tasks.length === 0) return;
    const scope = options.scope ?? ((run) => run());
    const work = options.answered.then(async () => {
      for (const task of tasks) {
        try {
          await scope(task);
        } catch (error) {
          options.log.error('work after the answer failed', { error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
        }
      }
    });
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Resolves once no work is left, including work scheduled while waiting. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}
