import { beforeEach, describe, expect, it } from 'vitest';
import { RequestPasswordReset } from '../../../../application/auth/request-password-reset.js';
import { ResetPassword } from '../../../../application/auth/reset-password.js';
import { CreateUser } from '../../../../application/users/create-user.js';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { InProcessEventBus } from '../../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import { InMemoryPasswordResetTokens } from '../../../../adapters/persistence/memory/in-memory-password-reset-tokens.js';
import { InMemoryUserRepository } from '../../../../adapters/persistence/memory/in-memory-user-repository.js';
import { CryptoRandomSource } from '../../../../adapters/random/crypto-random-source.js';
import { PasswordReset } from '../../../../domain/auth/events.js';
import type { User } from '../../../../domain/users/user.js';
import type { AuthMail } from '../../../../ports/auth-mail.js';
import type { PasswordHasher } from '../../../../ports/password-hasher.js';

const hasher: PasswordHasher = {
  hash: (password) => Promise.resolve(`hashed:${password}`),
  verify: (hash, password) => Promise.resolve(hash === `hashed:${password}`),
};

class CapturedMail implements AuthMail {
  readonly resets: { email: string; token: string }[] = [];
  sendPasswordReset(user: User, token: string): Promise<void> {
    this.resets.push({ email: user.email, token });
    return Promise.resolve();
  }
  sendEmailVerification(): Promise<void> {
    return Promise.resolve();
  }
}

describe('password reset', () => {
  let clock: FixedClock;
  let users: InMemoryUserRepository;
  let mail: CapturedMail;
  let request: RequestPasswordReset;
  let reset: ResetPassword;
  let published: PasswordReset[];

  beforeEach(async () => {
    clock = new FixedClock('2026-03-01T12:00:00Z');
    users = new InMemoryUserRepository();
    mail = new CapturedMail();
    const tokens = new InMemoryPasswordResetTokens();
    const events = new InProcessEventBus(new MemoryLogger([]));
    published = [];
    events.listen(PasswordReset, (event) => {
      published.push(event);
    });
    request = new RequestPasswordReset(users, tokens, mail, new CryptoRandomSource(), clock);
    reset = new ResetPassword(users, tokens, hasher, events, clock);
    await new CreateUser(users, hasher, clock).execute({ name: 'Ada', email: 'ada@example.com', password: 'old password' });
  });

  async function linkToken(): Promise<string> {
    await request.execute('ada@example.com');
    const last = mail.resets.at(-1);
    if (last === undefined) throw new Error('no mail');
    return last.token;
  }

  it('mails nobody for an unknown address, and says nothing about it', async () => {
    await expect(request.execute('nobody@example.com')).resolves.toBeUndefined();
    expect(mail.resets).toHaveLength(0);
  });

  it('sets the new password once per link, ends every session and tells listeners', async () => {
    const token = await linkToken();
    const done = await reset.execute({ email: 'ada@example.com', token, password: 'new password' });
    expect(done.kind).toBe('reset');
    const stored = await users.findByEmail('ada@example.com');
    expect(stored?.passwordHash).toBe('hashed:new password');
    expect(stored?.sessionEpoch).toBe(1);
    expect(published).toHaveLength(1);
    expect(await reset.execute({ email: 'ada@example.com', token, password: 'third password' })).toEqual({ kind: 'invalid-token' });
  });

  it('refuses an expired link (60 minutes), a tampered one, another user, and an older link after a newer one', async () => {
    const first = await linkToken();
    const second = await linkToken();
    expect(await reset.execute({ email: 'ada@example.com', token: first, password: 'new password' })).toEqual({ kind: 'invalid-token' });
    const tampered = `${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`;
    expect(await reset.execute({ email: 'ada@example.com', token: tampered, password: 'new password' })).toEqual({ kind: 'invalid-token' });
    expect(await reset.execute({ email: 'bob@example.com', token: second, password: 'new password' })).toEqual({ kind: 'invalid-token' });
    const third = await linkToken();
    clock.advance(60 * 60_000);
    expect(await reset.execute({ email: 'ada@example.com', token: third, password: 'new password' })).toEqual({ kind: 'invalid-token' });
  });

  it('checks the new password before using up the link', async () => {
    const token = await linkToken();
    expect(await reset.execute({ email: 'ada@example.com', token, password: 'short' })).toMatchObject({ kind: 'invalid-password' });
    expect((await reset.execute({ email: 'ada@example.com', token, password: 'long enough now' })).kind).toBe('reset');
  });
});
