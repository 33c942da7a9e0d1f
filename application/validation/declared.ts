/**
 * The declarative way of writing rules, the spec's attribute form without decorators: one
 * object per field whose keys are the chain's methods (`max: 100` is `.max(100)`, `email:
 * true` is `.email()`, `between: [8, 64]` is `.between(8, 64)`), in the order written, plus
 * the attribute form's extras: `label`, `messages` (per rule), `rename` (the name in the
 * input and in errors, when it differs from the property), `each` (rules for every item of a
 * list), `nested` (a group's or each item's own fields) and `distinct` (each repeat of a list
 * gets the error). `bag` and the hooks (`prepare`, `authorize`, `after`) sit beside `fields`
 * on the form, as in the chained form.
 *
 *     fields: {
 *       email: { required: true, email: true, max: 255, unique: ['users', 'email', { ignoreField: 'id' }] },
 *       tags: { each: { alphaDash: true, max: 20 }, distinct: true },
 *       address: { nested: { city: { required: true } } },
 *     }
 */
import type { FieldRules } from './field-rules.js';
import type { Validator } from './validator.js';
import { MisuseError } from '../../domain/shared/errors.js';

type Method = {
  [K in keyof FieldRules]: FieldRules[K] extends (...args: never[]) => FieldRules ? K : never;
}[keyof FieldRules];

/** How a method's arguments are written: `true` for none, the value for one, a list for several. */
type Written<F> = F extends (...args: infer P) => unknown
  ? P extends []
    ? true
    : P['length'] extends 1
      ? P[0]
      : [] extends P
        ? true | P
        : P
  : never;

type RuleDeclarations = {
  [K in Exclude<Method, 'label' | 'message' | 'ignore' | 'unique' | 'distinct'>]?: Written<FieldRules[K]> | false;
};

export interface FieldDeclaration extends RuleDeclarations {
  /** `.unique(table, column)`; a third item `{ ignoreField: 'id' }` leaves out the row whose id that field holds (an edit form). */
  unique?: [table: string, column: string] | [table: string, column: string, options: { ignoreField: string; idColumn?: string }];
  /** Names the field in its messages. */
  label?: string;
  /** Replaces a rule's message: `{ required: 'Pick a plan.' }` (a key or a sentence). */
  messages?: Partial<Record<Method, string>>;
  /** The field's name in the input and in errors, when the property is named differently. */
  rename?: string;
  /** Rules for every item of the list (errors on `tags.0`, `tags.1`). */
  each?: FieldDeclaration;
  /** The fields of a group, or of every group of a list (`lines.0.qty`). */
  nested?: FieldDeclarations;
  /** Each repeated item of the list gets the error. */
  distinct?: boolean | { ignoreCase?: boolean };
}

export type FieldDeclarations = Readonly<Record<string, FieldDeclaration>>;

/** Methods whose list is their arguments, not one argument that is a list. */
const SPREAD = new Set<string>(['requiredWith', 'requiredWithout', 'prohibits', 'between', 'decimal', 'digitsBetween', 'startsWith', 'endsWith', 'mimes', 'confirmed']);
const EXTRAS = new Set<string>(['label', 'messages', 'rename', 'each', 'nested', 'distinct', 'unique']);

/** The input name of each renamed property, through nested groups: `{ emailAddress: 'email' }`. */
export function renamesOf(fields: FieldDeclarations): Map<string, string> {
  const renames = new Map<string, string>();
  for (const [property, declaration] of Object.entries(fields)) {
    if (declaration.rename !== undefined) renames.set(property, declaration.rename);
  }
  return renames;
}

/** Adds the declared rules to a validator, as `rules()` would with the chain. */
export function applyDeclarations(v: Validator, fields: FieldDeclarations): void {
  for (const [property, declaration] of Object.entries(fields)) {
    // Rules judge the property's coerced value; its errors move to the input name at the end.
    const name = property;
    const chain = v.field(name);
    applyTo(chain, declaration, v);
    if (declaration.each !== undefined) {
      const item = declaration.each;
      v.each(name, (rules) => applyTo(rules, item, v));
    }
    if (declaration.nested !== undefined) {
      const nested = declaration.nested;
      v.nested(name, (inner) => applyDeclarations(inner, nested));
    }
    if (declaration.distinct !== undefined && declaration.distinct !== false) {
      v.distinct(name, declaration.distinct === true ? {} : declaration.distinct);
    }
  }
}

function applyTo(chain: FieldRules, declaration: FieldDeclaration, v: Validator): void {
  const methods = chain as unknown as Record<string, (...args: unknown[]) => FieldRules>;
  for (const [key, written] of Object.entries(declaration)) {
    if (EXTRAS.has(key)) {
      if (key === 'unique') applyUnique(chain, declaration.unique, v);
      else if (key === 'label' && typeof written === 'string') chain.label(written);
      continue;
    }
    const method = methods[key];
    if (typeof method !== 'function') throw new MisuseError('validation.unknown-rule', `Unknown validation rule '${key}' on field ${chain.name}`);
    if (written === false || written === undefined) continue;
    if (SPREAD.has(key)) method.apply(chain, written === true ? [] : (written as unknown[]));
    else if (written === true && method.length === 0) method.call(chain);
    else method.call(chain, written);
    const message = declaration.messages?.[key as Method];
    if (message !== undefined) chain.message(message);
  }
}

function applyUnique(chain: FieldRules, unique: FieldDeclaration['unique'], v: Validator): void {
  if (unique === undefined) return;
  const [table, column, options] = unique;
  chain.unique(table, column);
  if (options !== undefined) {
    const id = v.valueOf(options.ignoreField);
    chain.ignore(typeof id === 'string' || typeof id === 'number' ? id : undefined, options.idColumn);
  }
}
