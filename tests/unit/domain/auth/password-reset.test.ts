import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isResetToken, resetTokenAlive, resetTokenFrom, resetTokenHash } from '../../../../domain/auth/password-reset.js';

const token = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(resetTokenFrom);
const owner = fc.record({ email: fc.emailAddress(), passwordHash: fc.option(fc.string({ minLength: 1 }), { nil: null }) });

describe('reset tokens', () => {
  it('are 43 base64url characters, and only such strings are looked up', () => {
    fc.assert(fc.property(token, (t) => isResetToken(t)));
    for (const bad of ['', 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`, `${'a'.repeat(42)}/`]) expect(isResetToken(bad)).toBe(false);
  });

  it('hash the same for the same token and the same credentials', () => {
    fc.assert(fc.property(token, owner, (t, o) => resetTokenHash(t, o) === resetTokenHash(t, { ...o })));
  });

  it('hash differently once the password hash or the address changes (the link dies with the credentials)', () => {
    fc.assert(
      fc.property(token, owner, fc.string({ minLength: 1 }), fc.emailAddress(), (t, o, otherHash, otherEmail) => {
        fc.pre(otherHash !== o.passwordHash && otherEmail !== o.email);
        const stored = resetTokenHash(t, o);
        return resetTokenHash(t, { ...o, passwordHash: otherHash }) !== stored && resetTokenHash(t, { ...o, email: otherEmail }) !== stored;
      }),
    );
  });

  it('cannot be made to collide by moving characters between the address and the password hash', () => {
    const t = resetTokenFrom(new Uint8Array(32));
    expect(resetTokenHash(t, { email: 'a@b.c', passwordHash: 'xy' })).not.toBe(resetTokenHash(t, { email: 'a@b.cx', passwordHash: 'y' }));
    // A user without a password and one whose hash were empty are the same owner: both have none.
    expect(resetTokenHash(t, { email: 'a@b.c', passwordHash: null })).toBe(resetTokenHash(t, { email: 'a@b.c', passwordHash: '' }));
  });

  it('live for 60 minutes: at 59:59.999 yes, at 60:00 and before their making no', () => {
    const made = new Date('2026-01-01T00:00:00Z');
    expect(resetTokenAlive(made, new Date(made.getTime() + 3_599_999))).toBe(true);
    expect(resetTokenAlive(made, new Date(made.getTime() + 3_600_000))).toBe(false);
    expect(resetTokenAlive(made, new Date(made.getTime() - 1))).toBe(false);
  });
});
