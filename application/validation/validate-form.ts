/**
 * A form's validation, the spec's `Validate`: the same steps for an HTTP form, a CSV row, a
 * command's options or a job's payload. Steps run in the spec's order: `prepare` the raw
 * input; `authorize` (false: forbidden, 403 over HTTP); the shape and the `rules` together,
 * so every field's errors show at once, also when one does not parse (database rules last,
 * all at once); `after`, only when all of those passed.
 */
import { isRecord } from '../../domain/validation/values.js';
import { ErrorCollector, WHOLE_FORM } from './errors.js';
import type { FieldErrors } from './errors.js';
import type { FormContext } from './form-context.js';
import { labelFor } from './labels.js';
import type { Labels } from './labels.js';
import { renderFailure } from './messages.js';
import { shapeFailureKey } from './shape.js';
import type { Shape } from './shape.js';
import { applyDeclarations, renamesOf } from './declared.js';
import type { FieldDeclarations } from './declared.js';
import { Validator } from './validator.js';

export interface FormDefinition<T> {
  shape: Shape<T>;
  /** Tidies the raw input first, e.g. lower-cases an email before `unique` looks it up. */
  prepare?(input: unknown): unknown;
  /** Whether this user may submit the form at all; `input` is the prepared input. */
  authorize?(context: FormContext, input: unknown): boolean | Promise<boolean>;
  /**
   * Rules beyond the types, with `v.field(name)…`. `value` holds what parsed, and the input as
   * sent for fields that did not, plus any extra input (`password_confirmation`).
   */
  rules?(v: Validator, value: Partial<T> & Record<string, unknown>, context: FormContext): void | Promise<void>;
  /** The declarative form of the rules (see `declared.ts`); runs with `rules` when both are given. */
  fields?: FieldDeclarations;
  /** Checks across fields once everything else passed; add failures with `errors.add(field, message)`. */
  after?(value: T, errors: ErrorCollector, context: FormContext): void | Promise<void>;
  /** Field names in messages, by path (`address.city`, `tags.*`). */
  labels?: Labels;
}

export type ValidationResult<T> =
  | { kind: 'valid'; value: T }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'forbidden' };

export async function validateForm<T>(form: FormDefinition<T>, input: unknown, context: FormContext): Promise<ValidationResult<T>> {
  const renames = form.fields === undefined ? NO_RENAMES : renamesOfCached(form.fields);
  const prepared = form.prepare === undefined ? input : form.prepare(input);
  if (form.authorize !== undefined && !(await form.authorize(context, prepared))) return { kind: 'forbidden' };

  const { lang } = context;
  const labelOf = (field: string): string => labelFor(inputPath(field, renames), form.labels, lang);
  const errors = new ErrorCollector();
  // A renamed field arrives under its input name; the shape and `T` know the property.
  const parsed = form.shape.parse(renames.size === 0 ? prepared : toProperties(prepared, renames));
  let unparsed = NOTHING_UNPARSED;

  if (!parsed.ok) {
    const failed = new Set<string>();
    unparsed = failed;
    const whole = parsed.failures.filter((each) => each.path === '');
    if (whole.length > 0) {
      // Not a form at all (a JSON list, a string): its "fields" would only be noise.
      for (const each of whole) errors.add(WHOLE_FORM, lang.t(shapeFailureKey(each.kind), { attribute: labelOf(WHOLE_FORM) }));
      return { kind: 'invalid', errors: errors.toRecord() };
    }
    for (const each of parsed.failures) {
      failed.add(each.path);
      const rule = each.kind === 'required' ? 'required' : 'type';
      const failure = { key: shapeFailureKey(each.kind) };
      errors.add(each.path, renderFailure({ lang, field: each.path, rule, failure, label: labelOf(each.path), labelOf }));
    }
  }

  if (form.rules !== undefined || form.fields !== undefined) {
    const raw = isRecord(prepared) ? prepared : {};
    const values = parsed.ok ? (isRecord(parsed.value) ? withExtras(parsed.value, raw) : raw) : parsed.values;
    const validator = new Validator({ values, context, labelOf }, unparsed);
    if (form.fields !== undefined) applyDeclarations(validator, form.fields);
    // Awaited only when async: a microtask per form step is measurable at thousands of forms a second.
    const written = form.rules?.(validator, values as Partial<T> & Record<string, unknown>, context);
    if (written instanceof Promise) await written;
    const running = validator.run(errors);
    if (running !== undefined) await running;
  }
  if (!parsed.ok || !errors.isEmpty()) return { kind: 'invalid', errors: toInputNames(errors.toRecord(), renames) };

  const checked = form.after?.(parsed.value, errors, context);
  if (checked instanceof Promise) await checked;
  return errors.isEmpty() ? { kind: 'valid', value: parsed.value } : { kind: 'invalid', errors: toInputNames(errors.toRecord(), renames) };
}

/**
 * What parsed, plus the input the shape does not declare (`password_confirmation`), as
 * `{ ...raw, ...parsed }` would give it. Built from the parsed copy, adding the few extras:
 * spreading thirty parsed values over the raw input re-shaped the object on every form and
 * was a fifth of the engine's time.
 */
function withExtras(parsed: Record<string, unknown>, raw: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = { ...parsed };
  // Defined, not assigned: a field named `__proto__` must stay a field, never the values' prototype.
  for (const key of Object.keys(raw)) if (!Object.hasOwn(values, key)) Object.defineProperty(values, key, { value: raw[key], enumerable: true, writable: true, configurable: true });
  return values;
}

const NO_RENAMES: ReadonlyMap<string, string> = new Map();
const NOTHING_UNPARSED: ReadonlySet<string> = new Set();
const renamesByFields = new WeakMap<FieldDeclarations, ReadonlyMap<string, string>>();

/** A form's renames, read once per declaration (a form is validated thousands of times). */
function renamesOfCached(fields: FieldDeclarations): ReadonlyMap<string, string> {
  let renames = renamesByFields.get(fields);
  if (renames === undefined) {
    renames = renamesOf(fields);
    renamesByFields.set(fields, renames);
  }
  return renames;
}

/** A property's path as the input names it (`emailAddress.x` → `email.x` with `rename: 'email'`). */
function inputPath(field: string, renames: ReadonlyMap<string, string>): string {
  if (renames.size === 0) return field;
  const [head = '', ...rest] = field.split('.');
  const name = renames.get(head);
  return name === undefined ? field : [name, ...rest].join('.');
}

function toProperties(input: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (!isRecord(input)) return input;
  const copy: Record<string, unknown> = { ...input };
  for (const [property, name] of renames) {
    if (Object.hasOwn(copy, name)) copy[property] = copy[name];
  }
  return copy;
}

/** Errors of a renamed property (from the shape or `after`) go under the input name the form shows. */
function toInputNames(errors: FieldErrors, renames: ReadonlyMap<string, string>): FieldErrors {
  if (renames.size === 0) return errors;
  const renamed: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const key = inputPath(field, renames);
    renamed[key] = [...(renamed[key] ?? []), ...messages];
  }
  return renamed;
}
