import { checkIdentifiers } from '../../../ports/record-lookup.js';
import type { RecordLookup, RecordLookupBatch, RecordLookupQuery } from '../../../ports/record-lookup.js';
import { MemoryTables, cellDiffers, cellEquals } from './memory-tables.js';

export type { MemoryRow } from './memory-tables.js';

/** `RecordLookup` over rows kept in memory, for unit tests; a bad name is a `TypeError`, as in SQL. */
export class InMemoryRecordLookup extends MemoryTables implements RecordLookup {
  exists(query: RecordLookupQuery): Promise<boolean> {
    // Run inside the promise: a bad query rejects, as the SQL adapter's does, instead of throwing.
    return Promise.resolve(query).then((checked) => this.find(checked));
  }

  /** Also counts its calls, so tests can see a form's lookups went out together. */
  existsEach(batch: RecordLookupBatch): Promise<boolean[]> {
    this.batches += 1;
    return Promise.resolve(batch).then(({ table, probes }) => probes.map((probe) => this.find({ table, ...probe })));
  }

  /** How many `existsEach` calls were made. */
  batches = 0;

  private find(query: RecordLookupQuery): boolean {
    checkIdentifiers(query);
    const { column, value, ignore } = query;
    return this.rowsOf(query.table).some((row) => cellEquals(row[column], value) && (ignore === undefined || cellDiffers(row[ignore.column], ignore.value)));
  }
}
