import type { Lang } from '../../domain/lang/lang.js';
import type { RuleFailure } from '../../domain/validation/verdict.js';

/**
 * Turns a rule's failure into the sentence a visitor reads, in the request's language.
 * Overrides win as in Laravel: a `.message(text)` on the chain first; then the language
 * files' `validation.custom.<field>.<rule>` (field by path, or with `*` for item numbers);
 * then the rule's own key. `:attribute` is the field's label; params naming other fields
 * (`:other`) show their labels too.
 */
export function renderFailure(options: {
  lang: Lang;
  field: string;
  rule: string;
  failure: RuleFailure;
  label: string;
  labelOf: (field: string) => string;
  custom?: string | undefined;
}): string {
  const { lang, field, rule, failure, label } = options;
  const params: Record<string, string | number> = { attribute: label, ...failure.params };
  if (failure.fields !== undefined) {
    for (const [name, path] of Object.entries(failure.fields)) {
      params[name] = path.split(' / ').map((each) => options.labelOf(each)).join(' / ');
    }
  }
  if (options.custom !== undefined) return lang.t(options.custom, params);
  const wildcard = field.replace(/\.\d+(?=\.|$)/gu, '.*');
  const overrideKey = [`validation.custom.${field}.${rule}`, `validation.custom.${wildcard}.${rule}`].find((key) => lang.has(key));
  if (overrideKey !== undefined) return lang.t(overrideKey, params);
  return failure.count === undefined ? lang.t(failure.key, params) : lang.choice(failure.key, failure.count, params);
}
