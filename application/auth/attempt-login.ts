import { LOGIN_LOCK, loginLockKey, loginLockState } from '../../domain/auth/login-lock.js';
import { currentWindow } from '../../domain/http/rate-limits/rate-limit.js';
import type { User } from '../../domain/users/user.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface LoginAttempt {
  email: string;
  password: string;
  /** The client's address through trusted proxies; the lock counts per address and client. */
  ip: string | null;
}

export type LoginOutcome =
  | { kind: 'succeeded'; user: User }
  /** Wrong address or wrong password: one answer for both. */
  | { kind: 'failed' }
  | { kind: 'locked'; retryAfterSeconds: number };

/** Hashed once per process and kept: verifying against it costs what a real check costs. */
const DUMMY_PASSWORD = 'fw-dummy-password-that-no-user-has';

/**
 * A login with email and password. A wrong address and a wrong password give the same outcome
 * and take about the same time (an unknown address, or a user without a password, is checked
 * against a dummy hash). Attempts count on the shared counters; after five in a minute for one
 * address from one client, the next are refused unchecked until the minute ends; a success
 * clears the count.
 */
export class AttemptLogin {
  #dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly counters: CacheStore,
    private readonly clock: Clock,
  ) {}

  async execute(attempt: LoginAttempt): Promise<LoginOutcome> {
    const now = this.clock.now();
    const key = loginLockKey(attempt.email, attempt.ip, now);
    // Every attempt takes a ticket first, atomically on the shared counters, and only the first
    // five of a minute are checked: concurrent guesses, from any number of servers, cannot
    // slip in while earlier ones are still being verified. A success returns the tickets.
    const ticket = await this.counters.increment(key, new Date(currentWindow(LOGIN_LOCK, now).resetsAt));
    const lock = loginLockState(ticket - 1, now);
    if (lock.kind === 'locked') return { kind: 'locked', retryAfterSeconds: lock.retryAfterSeconds };

    const user = await this.users.findByEmail(attempt.email);
    const hash = user?.hasPassword() === true ? (user.passwordHash as string) : await this.dummyHash();
    const matches = await this.hasher.verify(hash, attempt.password);
    if (user === null || !user.hasPassword() || !matches) return { kind: 'failed' };
    await this.counters.forget(key);
    return { kind: 'succeeded', user };
  }

  private dummyHash(): Promise<string> {
    this.#dummyHash ??= this.hasher.hash(DUMMY_PASSWORD);
    return this.#dummyHash;
  }
}
