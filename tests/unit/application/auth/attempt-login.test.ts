import { beforeEach, describe, expect, it } from 'vitest';
import { AttemptLogin } from '../../../../application/auth/attempt-login.js';
import { CreateUser } from '../../../../application/users/create-user.js';
import { MemoryCacheStore } from '../../../../adapters/cache/memory-cache-store.js';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { InMemoryUserRepository } from '../../../../adapters/persistence/memory/in-memory-user-repository.js';
import type { PasswordHasher } from '../../../../ports/password-hasher.js';

/** A hasher that records what it was asked, so the dummy-hash rule can be seen. */
class RecordingHasher implements PasswordHasher {
  readonly verified: string[] = [];
  hash(password: string): Promise<string> {
    return Promise.resolve(`hashed:${password}`);
  }
  verify(hash: string, password: string): Promise<boolean> {
    this.verified.push(hash);
    return Promise.resolve(hash === `hashed:${password}`);
  }
}

describe('AttemptLogin', () => {
  let clock: FixedClock;
  let hasher: RecordingHasher;
  let login: AttemptLogin;
  let users: InMemoryUserRepository;

  beforeEach(async () => {
    clock = new FixedClock('2026-03-01T12:00:10Z');
    hasher = new RecordingHasher();
    users = new InMemoryUserRepository();
    login = new AttemptLogin(users, hasher, new MemoryCacheStore(clock), clock);
    const create = new CreateUser(users, hasher, clock);
    await create.execute({ name: 'Ada', email: 'ada@example.com', password: 'correct horse' });
    await create.execute({ name: 'Social', email: 'social@example.com' });
  });

  it('signs in with the right password, whatever the case of the address', async () => {
    expect(await login.execute({ email: ' ADA@example.com', password: 'correct horse', ip: '203.0.113.1' })).toMatchObject({ kind: 'succeeded', user: { email: 'ada@example.com' } });
  });

  it.each([
    ['a wrong password', 'ada@example.com', 'wrong horse'],
    ['an unknown address', 'nobody@example.com', 'correct horse'],
    ['a user without a password', 'social@example.com', ''],
  ])('gives one answer for %s, and still verifies a hash', async (_name, email, password) => {
    expect(await login.execute({ email, password, ip: '203.0.113.1' })).toEqual({ kind: 'failed' });
    expect(hasher.verified).toHaveLength(1);
  });

  it('locks an address for one client after five attempts in a minute, until the minute ends', async () => {
    for (let i = 0; i < 5; i++) expect((await login.execute({ email: 'ada@example.com', password: 'nope', ip: '203.0.113.1' })).kind).toBe('failed');
    expect(await login.execute({ email: 'ada@example.com', password: 'correct horse', ip: '203.0.113.1' })).toEqual({ kind: 'locked', retryAfterSeconds: 50 });
    expect(hasher.verified).toHaveLength(5);
    // Another client is not locked out by the guesses of this one.
    expect((await login.execute({ email: 'ada@example.com', password: 'correct horse', ip: '198.51.100.7' })).kind).toBe('succeeded');
    clock.advance(50_000);
    expect((await login.execute({ email: 'ada@example.com', password: 'correct horse', ip: '203.0.113.1' })).kind).toBe('succeeded');
  });

  it('lets at most five of many concurrent guesses be checked', async () => {
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => login.execute({ email: 'ada@example.com', password: 'nope', ip: '203.0.113.1' })));
    expect(outcomes.filter((outcome) => outcome.kind === 'failed')).toHaveLength(5);
    expect(hasher.verified).toHaveLength(5);
  });

  it('clears the count after a success', async () => {
    for (let i = 0; i < 4; i++) await login.execute({ email: 'ada@example.com', password: 'nope', ip: '203.0.113.1' });
    expect((await login.execute({ email: 'ada@example.com', password: 'correct horse', ip: '203.0.113.1' })).kind).toBe('succeeded');
    for (let i = 0; i < 5; i++) expect((await login.execute({ email: 'ada@example.com', password: 'nope', ip: '203.0.113.1' })).kind).toBe('failed');
  });
});
