import { checkRecordQuery } from '../../../ports/record-finder.js';
import type { FoundRow, RecordFinder, RecordQuery } from '../../../ports/record-finder.js';
import type { MemoryRow } from './in-memory-record-lookup.js';

/**
 * `RecordFinder` over rows kept in a Map, for unit tests. It fails where SQL fails: a bad
 * name is a `TypeError`, and a table nobody declared or inserted into is an error.
 * Values compare as text (`5` finds `'5'`), and a `null` condition matches a missing cell too.
 */
export class InMemoryRecordFinder implements RecordFinder {
  private readonly tables = new Map<string, MemoryRow[]>();

  /** `tables` start empty; `insert` also creates its table. */
  constructor(tables: Iterable<string> = []) {
    for (const table of tables) this.tables.set(table, []);
  }

  insert(table: string, row: MemoryRow): void {
    const rows = this.tables.get(table) ?? [];
    rows.push({ ...row });
    this.tables.set(table, rows);
  }

  findOne(query: RecordQuery): Promise<FoundRow | null> {
    // Run inside the promise: a bad query rejects, as the SQL adapter's does, instead of throwing.
    return Promise.resolve(query).then((checked) => this.find(checked));
  }

  private find(query: RecordQuery): FoundRow | null {
    checkRecordQuery(query);
    const rows = this.tables.get(query.table);
    if (rows === undefined) throw new Error(`No table named ${query.table}`);
    const conditions = Object.entries(query.where);
    const row = rows.find((candidate) =>
      conditions.every(([column, value]) => {
        const cell = candidate[column] ?? null;
        return value === null ? cell === null : cell !== null && String(cell) === String(value);
      }),
    );
    return row === undefined ? null : { ...row };
  }
}
