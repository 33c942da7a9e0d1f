import { MisuseError } from '../domain/shared/errors.js';
/**
 * Whether a row with a given value exists: what the `unique` and `exists` validation rules
 * ask the database, without the validation layer knowing which database answers.
 *
 * Table and column names come from code (a form's rules), never from a request, and are
 * checked against `IDENTIFIER` (a `TypeError` otherwise) because SQL cannot bind them as
 * parameters. Values are always bound parameters, so any text a visitor types is just a value.
 *
 * Matching is exact. Emails are stored lower-cased by the domain (`normalizeEmail`), so a
 * caller looking up an address lower-cases it first. A number and its decimal text match the
 * same row (`id = 5` and `id = '5'`), as they do in both SQL engines.
 */
export interface RecordLookupQuery {
  table: string;
  column: string;
  value: string | number;
  /** Leaves out the row being edited: `unique(...).ignore(id)` on a form that serves create and edit. */
  ignore?: { column: string; value: string | number };
}

/** One value asked of a column of the batch's table. */
export interface RecordLookupProbe {
  column: string;
  value: string | number;
  ignore?: { column: string; value: string | number };
}

/** Several lookups in one table, asked at once (a form's `unique` fields, a list's `exists`). */
export interface RecordLookupBatch {
  table: string;
  probes: readonly RecordLookupProbe[];
}

export interface RecordLookup {
  exists(query: RecordLookupQuery): Promise<boolean>;
  /**
   * `exists` for each probe, in one round trip (or a few for a very long list): the answer
   * holds one boolean per probe, in order, each the same as `exists` would give for it.
   */
  existsEach(batch: RecordLookupBatch): Promise<boolean[]>;
}

/** A plain lower-case SQL identifier: safe to put into a statement's text, and the same in every engine. */
export const IDENTIFIER = /^[a-z_][a-z0-9_]*$/u;

/**
 * Throws a `TypeError` naming the first table or column of the query that is not a plain
 * identifier. Every adapter calls it first, so a bad name fails the same way everywhere.
 */
export function checkIdentifiers(query: Pick<RecordLookupQuery, 'table' | 'column' | 'ignore'>): void {
  const names: Array<[string, string]> = [
    ['table', query.table],
    ['column', query.column],
  ];
  if (query.ignore !== undefined) names.push(['ignore column', query.ignore.column]);
  for (const [what, name] of names) {
    if (!IDENTIFIER.test(name)) {
      throw new MisuseError('data.bad-identifier', `The ${what} name ${JSON.stringify(name)} is not a plain identifier (${IDENTIFIER.source})`);
    }
  }
}
