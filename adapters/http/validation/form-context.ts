import type { PasswordHasher } from '../../../ports/password-hasher.js';
import type { RecordLookup } from '../../../ports/record-lookup.js';

/**
 * What validation may know about the request beyond the input; the HTTP kernel fills it.
 * `user` is null for a guest; its `passwordHash` is null for an account made by a social
 * login (no typed password ever matches it).
 */
export interface FormContext {
  user: { id: number; passwordHash: string | null } | null;
  /** For `unique` and `exists`: the only way validation reaches the database. */
  records: RecordLookup;
  /** For `currentPassword`. */
  passwords: Pick<PasswordHasher, 'verify'>;
}
