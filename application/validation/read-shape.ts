import type { Lang } from '../../domain/lang/lang.js';
import { ErrorCollector, WHOLE_FORM } from './errors.js';
import type { FieldErrors } from './errors.js';
import { labelFor } from './labels.js';
import { renderFailure } from './messages.js';
import { shapeFailureKey } from './shape.js';
import type { Shape } from './shape.js';

export type ShapeReading<T> = { kind: 'read'; value: T } | { kind: 'unfit'; errors: FieldErrors };

/**
 * Input read by its shape alone, no rules and no form steps (the spec's unvalidated `Form<T>`
 * and `Json<T>`): the typed value, or every field that does not fit with the sentence
 * `Valid<T>` would give it (labels and custom messages from the language files).
 */
export function readShape<T>(shape: Shape<T>, input: unknown, lang: Lang): ShapeReading<T> {
  const parsed = shape.parse(input);
  if (parsed.ok) return { kind: 'read', value: parsed.value };
  const labelOf = (field: string): string => labelFor(field, {}, lang);
  const errors = new ErrorCollector();
  const whole = parsed.failures.filter((each) => each.path === '');
  for (const each of whole.length > 0 ? whole : parsed.failures) {
    const field = each.path === '' ? WHOLE_FORM : each.path;
    const rule = each.kind === 'required' ? 'required' : 'type';
    errors.add(field, renderFailure({ lang, field, rule, failure: { key: shapeFailureKey(each.kind) }, label: labelOf(field), labelOf }));
  }
  return { kind: 'unfit', errors: errors.toRecord() };
}
