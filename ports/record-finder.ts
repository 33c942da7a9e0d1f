import type { ModelDefinition } from '../domain/data/model.js';
import type { Conditions } from '../domain/http/routing/model-binding.js';
import { IDENTIFIER } from './record-lookup.js';
import { MisuseError } from '../domain/shared/errors.js';

/**
 * One row of any table by equality conditions: what route model binding (`ctx.found`) asks
 * the database. The table is an app's own, which the ORM's mappings do not know.
 *
 * As in `RecordLookup`, names come from code and must be plain identifiers (a `TypeError`
 * otherwise); values are always bound parameters. A condition of `null` means `IS NULL`. A
 * number and its decimal text match the same row. A value the column's type cannot hold
 * (text against a UUID or integer column on PostgreSQL, a number past the column's range)
 * names no row rather than failing, as it already does on SQLite.
 */
export interface RecordQuery {
  table: string;
  /** At least one condition: a query without any would return an arbitrary row. */
  where: Conditions;
  /**
   * The `defineModel` model the table belongs to, when there is one: the row then comes back
   * as the data layer reads it (types decoded, encrypted values opened, skipped fields set).
   */
  model?: ModelDefinition;
}

/** A row as the driver gives it: PostgreSQL returns `bigint` as text and timestamps as `Date`. */
export type FoundRow = Readonly<Record<string, unknown>>;

export interface RecordFinder {
  /** The first row matching every condition, or null. */
  findOne(query: RecordQuery): Promise<FoundRow | null>;
}

/** Throws a `TypeError` for a bad table or column name, or no condition at all; every adapter calls it first. */
export function checkRecordQuery(query: RecordQuery): void {
  const columns = Object.keys(query.where);
  if (columns.length === 0) throw new MisuseError('data.no-condition', `A lookup in ${JSON.stringify(query.table)} needs at least one condition`);
  for (const [what, name] of [['table', query.table], ...columns.map((column) => ['column', column])]) {
    if (!IDENTIFIER.test(name ?? '')) {
      throw new MisuseError('data.bad-identifier', `The ${what} name ${JSON.stringify(name)} is not a plain identifier (${IDENTIFIER.source})`);
    }
  }
}
