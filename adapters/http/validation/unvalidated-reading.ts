import type { Context } from 'superstruct';

/**
 * The roots of inputs read as the unvalidated body (`ctx.form`, the spec's `Form<T>`). Form
 * fields there take the plain meaning of their type: a checkbox is `true` or `false` only, so
 * the browser's `on` (and absence meaning "no") belongs to `ctx.valid` alone, as spec 002's
 * type rules say. superstruct hands every coercer the input's root as `branch[0]`, so a field
 * knows how it is read without a second set of structs; the root is a fresh copy, so the same
 * body read by `ctx.valid` afterwards keeps the checkbox's browser meaning.
 */
const unvalidatedRoots = new WeakSet<object>();

/** A copy of `input` that fields read strictly; anything but an object is returned as is (it fails the shape anyway). */
export function asUnvalidated(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Buffer.isBuffer(input)) return input;
  const root: object = Array.isArray(input) ? [...(input as unknown[])] : { ...input };
  unvalidatedRoots.add(root);
  return root;
}

/** Whether the value being coerced belongs to an input read as the unvalidated body. */
export function readUnvalidated(context: Context | undefined): boolean {
  const root: unknown = context?.branch[0];
  return typeof root === 'object' && root !== null && unvalidatedRoots.has(root);
}
