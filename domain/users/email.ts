/**
 * Email addresses are compared case-insensitively everywhere (login, uniqueness, linking a
 * provider account), so the domain keeps one canonical spelling: trimmed and lower-cased.
 * The syntax check is deliberately loose (one `@`, a dot in the domain, no spaces): the only
 * real proof of an address is the verification mail.
 */
export const EMAIL_MAX_LENGTH = 254;

export type EmailCheck =
  | { kind: 'valid'; email: string }
  | { kind: 'invalid'; reason: 'empty' | 'too-long' | 'malformed' };

const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/u;

export function normalizeEmail(raw: string): EmailCheck {
  const email = raw.trim().toLowerCase();
  if (email === '') return { kind: 'invalid', reason: 'empty' };
  if (email.length > EMAIL_MAX_LENGTH) return { kind: 'invalid', reason: 'too-long' };
  if (!SHAPE.test(email)) return { kind: 'invalid', reason: 'malformed' };
  return { kind: 'valid', email };
}
