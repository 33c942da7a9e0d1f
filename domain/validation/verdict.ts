/**
 * What a rule says about a value: `null` when it passes, else a failure naming a message key
 * (`validation.min.string`) and the values its sentence needs. Rules never build sentences:
 * the text comes from the language files, so the same rule speaks English or German.
 */
export type ParamValue = string | number;

export interface RuleFailure {
  /** A translation key, or (for `rule(bool, text)` and `.message(text)`) the sentence itself. */
  readonly key: string;
  readonly params?: Readonly<Record<string, ParamValue>>;
  /** Params that are other fields' paths, shown by their labels (`:other` in `same`). */
  readonly fields?: Readonly<Record<string, string>>;
  /** Picks the plural form (`key.one`, `key.other`) by the language's rules. */
  readonly count?: number;
}

export type Verdict = RuleFailure | null;

export function fail(key: string, params?: Record<string, ParamValue>, extra: Pick<RuleFailure, 'fields' | 'count'> = {}): RuleFailure {
  return params === undefined ? { key, ...extra } : { key, params, ...extra };
}
