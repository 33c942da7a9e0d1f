import type { Lang } from '../../domain/lang/lang.js';
import type { FormatChecks } from '../../domain/validation/format-checks.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordLookup } from '../../ports/record-lookup.js';

/** A key of the app's services (the same shape as the HTTP adapter's `ServiceKey`). */
export type FormServiceKey<T> = symbol & { readonly __service?: T };

/**
 * What validation may know beyond the input; the host (HTTP kernel, CSV import, a command)
 * fills it. `user` is null for a guest; its `passwordHash` is null for an account made by a
 * social login (no typed password ever matches it).
 */
export interface FormContext {
  user: { id: number; passwordHash: string | null } | null;
  /** For `unique` and `exists`: the only way validation reaches the database. */
  records: RecordLookup;
  /** For `currentPassword`. */
  passwords: Pick<PasswordHasher, 'verify'>;
  /** The text rules' format checks (email, url, uuid…), answered by a library adapter. */
  formats: FormatChecks;
  /** The language messages are written in. */
  lang: Lang;
  /** The app's services, for `authorize`, `rules` and `after` hooks that need one. */
  services?: <T>(key: FormServiceKey<T>) => T;
}
