import { checkRecordQuery } from '../../../ports/record-finder.js';
import type { FoundRow, RecordFinder, RecordQuery } from '../../../ports/record-finder.js';
import { MemoryTables, cellEquals } from './memory-tables.js';

/**
 * `RecordFinder` over rows kept in a Map, for unit tests. It fails where SQL fails: a bad
 * name is a `TypeError`, and a table nobody declared or inserted into is an error.
 * Values compare as text (`5` finds `'5'`), and a `null` condition matches a missing cell too.
 */
export class InMemoryRecordFinder extends MemoryTables implements RecordFinder {
  findOne(query: RecordQuery): Promise<FoundRow | null> {
    // Run inside the promise: a bad query rejects, as the SQL adapter's does, instead of throwing.
    return Promise.resolve(query).then((checked) => this.find(checked));
  }

  private find(query: RecordQuery): FoundRow | null {
    checkRecordQuery(query);
    const conditions = Object.entries(query.where);
    const row = this.rowsOf(query.table).find((candidate) =>
      conditions.every(([column, value]) => {
        const cell = candidate[column] ?? null;
        return value === null ? cell === null : cellEquals(cell, value);
      }),
    );
    return row === undefined ? null : { ...row };
  }
}
