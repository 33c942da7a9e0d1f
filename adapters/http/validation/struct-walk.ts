import { object } from 'superstruct';
import type { Context, Struct } from 'superstruct';

/**
 * A form's superstruct struct walked without superstruct's generic `validate`, for input that
 * fits. superstruct stays the declared shape: this calls the struct's own coercers,
 * validators and refiners in superstruct's order (coerce, validate, children, refine), so a
 * value that fits comes out the same. What it skips is the machinery around them, a
 * generator per node and a failure iterator per check (two thirds of a 30-field form's shape
 * pass): fw's own field structs (`fields.ts`) register plain functions for their coercion
 * and check, and are called directly. On the first thing that does not fit the walk gives up
 * (`DOES_NOT_FIT`) and the caller runs superstruct's `validate`, which finds every failure
 * with its path; only the pass path is fast, and it allocates no failures.
 */
export const DOES_NOT_FIT: unique symbol = Symbol('does not fit');

type Walk = (value: unknown, context: Context) => unknown;
/** Any struct, whatever it makes (the walk reads only its coercer, checks and entries). */
type AnyStruct = Struct<unknown, unknown>;

/** How one of fw's field structs coerces and what it accepts; `item` for a list's items. */
export interface FieldPlan {
  coerce: (value: unknown, context: Context) => unknown;
  accepts: (value: unknown) => boolean;
  item?: AnyStruct;
}

const plans = new WeakMap<object, FieldPlan>();
const walks = new WeakMap<object, { walk: Walk; needsPath: boolean }>();

/**
 * Marks a struct as one of fw's fields: its validator is exactly `accepts`, it has no
 * refiner, and it reads nothing of the context but the input's root (`branch[0]`).
 */
export function planField<S extends object>(struct: S, plan: FieldPlan): S {
  plans.set(struct, plan);
  return struct;
}

/** The struct's walk: the coerced value, or `DOES_NOT_FIT`. Call with `rootContext(input)`. */
export function walkerOf<T, S>(struct: Struct<T, S>): Walk {
  return compiled(struct as unknown as AnyStruct).walk;
}

/** The context superstruct gives the root of a `validate(input, { coerce: true, mask: true })`. */
export function rootContext(input: unknown): Context {
  return { path: [], branch: [input], mask: true };
}

function compiled(struct: AnyStruct): { walk: Walk; needsPath: boolean } {
  let entry = walks.get(struct);
  if (entry === undefined) {
    entry = compile(struct);
    walks.set(struct, entry);
  }
  return entry;
}

function compile(struct: AnyStruct): { walk: Walk; needsPath: boolean } {
  const plan = plans.get(struct);
  if (plan !== undefined && plan.item === undefined) {
    const { coerce, accepts } = plan;
    return {
      needsPath: false,
      walk: (value, context) => {
        const coerced = coerce(value, context);
        return accepts(coerced) ? coerced : DOES_NOT_FIT;
      },
    };
  }
  if (plan !== undefined && plan.item !== undefined) {
    const { coerce, accepts } = plan;
    const item = compiled(plan.item);
    return {
      needsPath: item.needsPath,
      walk: (value, context) => {
        const list = coerce(value, context);
        if (!accepts(list) || !Array.isArray(list)) return DOES_NOT_FIT;
        const items = list as unknown[];
        for (let index = 0; index < items.length; index++) {
          const entry = items[index];
          const walked = item.walk(entry, item.needsPath ? childContext(context, index, entry) : context);
          if (walked === DOES_NOT_FIT) return DOES_NOT_FIT;
          items[index] = walked;
        }
        return items;
      },
    };
  }
  if (struct.type === 'object' && isPlainRecord(struct.schema)) return compileObject(struct, struct.schema as Record<string, AnyStruct>);
  return { needsPath: true, walk: genericWalk(struct) };
}

/** The source of superstruct's own `object()` coercer (copy, drop unknown keys when masking). */
const OBJECT_COERCER = String(object({}).coercer);
const OBJECT_MEMBERS = Object.prototype as Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with `.call`
const isOwnEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * `object({...})` (also refined): the known keys in schema order. With superstruct's own
 * coercer the copy is built here, key by key, instead of copying the input and deleting the
 * keys the schema does not know (a deleted key turns the copy into a slow dictionary object
 * that every later read and spread paid for); another coercer (`coerce(object(…))`) runs as written.
 */
function compileObject(struct: AnyStruct, schema: Record<string, AnyStruct>): { walk: Walk; needsPath: boolean } {
  const keys = Object.keys(schema);
  const children = keys.map((key) => compiled(schema[key] as AnyStruct));
  const ownCoercer = String(struct.coercer) === OBJECT_COERCER;
  return {
    needsPath: children.some((child) => child.needsPath),
    walk: (value, context) => {
      const coerced: unknown = ownCoercer ? value : struct.coercer(value, context);
      if (!isNothing(struct.validator(coerced, context))) return DOES_NOT_FIT;
      // superstruct walks the keys of an object only (`optional(object(…))` lets undefined through).
      if (typeof coerced !== 'object' || coerced === null) return isNothing(struct.refiner(coerced, context)) ? coerced : DOES_NOT_FIT;
      const record = coerced as Record<string, unknown>;
      const copy: Record<string, unknown> = ownCoercer ? {} : record;
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index] as string;
        const child = children[index] as { walk: Walk; needsPath: boolean };
        // What superstruct's copy (`{ ...input }`, a plain object) would hold under the key.
        const own = ownCoercer && isOwnEnumerable.call(record, key);
        const entry = ownCoercer && !own ? OBJECT_MEMBERS[key] : record[key];
        const walked = child.walk(entry, child.needsPath ? childContext(context, key, entry) : context);
        if (walked === DOES_NOT_FIT) return DOES_NOT_FIT;
        if (walked !== undefined || (ownCoercer ? own || key in OBJECT_MEMBERS : key in record)) copy[key] = walked;
      }
      return isNothing(struct.refiner(copy, context)) ? copy : DOES_NOT_FIT;
    },
  };
}

/** Any other struct: superstruct's own `run`, pass path only, with the path and branch it would give. */
function genericWalk(struct: AnyStruct): Walk {
  return (value, context) => {
    let coerced: unknown = struct.coercer(value, context);
    if (!isNothing(struct.validator(coerced, context))) return DOES_NOT_FIT;
    for (const [key, entry, child] of struct.entries(coerced, context)) {
      const walked = compiled(child as AnyStruct).walk(entry, key === undefined ? context : childContext(context, key, entry));
      if (walked === DOES_NOT_FIT) return DOES_NOT_FIT;
      if (key === undefined) coerced = walked;
      else if (coerced instanceof Map) coerced.set(key, walked);
      else if (coerced instanceof Set) coerced.add(walked);
      else if (typeof coerced === 'object' && coerced !== null && (walked !== undefined || key in coerced)) (coerced as Record<string | number, unknown>)[key as string] = walked;
    }
    return isNothing(struct.refiner(coerced, context)) ? coerced : DOES_NOT_FIT;
  };
}

function childContext(context: Context, key: string | number, value: unknown): Context {
  const path: unknown[] = context.path;
  const branch: unknown[] = context.branch;
  return { path: [...path, key], branch: [...branch, value], mask: true };
}

function isNothing(failures: Iterable<unknown>): boolean {
  for (const _ of failures) return false;
  return true;
}

function isPlainRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
