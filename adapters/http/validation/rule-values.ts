import type { Struct } from 'superstruct';
import { isRecord } from './values.js';
import type { FormValues } from './values.js';

/**
 * The values `rules()` judges. When the struct passed: its output over the raw input, so
 * extra input it does not declare (`password_confirmation`) stays readable. When it failed,
 * superstruct gives no output at all, yet the other fields' rules must still run: each
 * declared field is then coerced on its own, and one that does not parse keeps its raw value.
 */
export function ruleValues<T>(struct: Struct<T, unknown>, input: unknown, parsed: { value: unknown } | null): FormValues {
  const raw = isRecord(input) ? input : {};
  if (parsed !== null) return isRecord(parsed.value) ? { ...raw, ...parsed.value } : raw;

  const context = { branch: [input], path: [] };
  // The top-level coercer copies the object (and fills `defaulted` values) without masking.
  const top = struct.coercer(input, context);
  if (!isRecord(top)) return raw;
  const values: Record<string, unknown> = { ...top };
  for (const [key, value, field] of struct.entries(top, context)) {
    const [failure, coerced] = field.validate(value, { coerce: true, mask: true });
    if (failure === undefined) values[String(key)] = coerced;
  }
  return values;
}
