/**
 * The shape and types of a form's input, with coercion: what the input must look like before
 * rules judge it. The HTTP adapter builds shapes from superstruct structs (form text coerced
 * to numbers, checkboxes, lists); an importer or a command can bring its own.
 */

/** Why a field did not parse; each picks a message (`validation.type.integer`…). */
export type ShapeFailureKind = 'required' | 'integer' | 'number' | 'boolean' | 'text' | 'list' | 'group' | 'oneOf' | 'invalid';

export interface ShapeFailure {
  /** Dotted path; '' for the input as a whole (a JSON list where a form was expected). */
  path: string;
  kind: ShapeFailureKind;
}

export type ShapeResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      failures: ShapeFailure[];
      /** What did parse (coerced), and the input as sent for what did not: the rules still judge it. */
      values: Record<string, unknown>;
    };

export interface Shape<T> {
  parse(input: unknown): ShapeResult<T>;
}

/** The message key of a shape failure. */
export function shapeFailureKey(kind: ShapeFailureKind): string {
  return kind === 'required' ? 'validation.required' : kind === 'oneOf' ? 'validation.oneOf' : `validation.type.${kind}`;
}
