/**
 * NIST SP 800-63B style: a minimum length, a generous maximum, no composition rules and no
 * truncation (the whole password is hashed). The maximum only stops hashing megabytes.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 4096;

export type PasswordCheck = { kind: 'acceptable' } | { kind: 'unacceptable'; reason: string };

export function checkPassword(password: string): PasswordCheck {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return { kind: 'unacceptable', reason: `must be at least ${PASSWORD_MIN_LENGTH} characters` };
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return { kind: 'unacceptable', reason: `must be at most ${PASSWORD_MAX_LENGTH} characters` };
  }
  return { kind: 'acceptable' };
}
