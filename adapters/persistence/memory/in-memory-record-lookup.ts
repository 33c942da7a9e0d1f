import { checkIdentifiers } from '../../../ports/record-lookup.js';
import type { RecordLookup, RecordLookupQuery } from '../../../ports/record-lookup.js';

type Cell = string | number | boolean | null;
export type MemoryRow = Readonly<Record<string, Cell>>;

/**
 * `RecordLookup` over rows kept in a Map, for unit tests. It fails where SQL fails: a bad
 * name is a `TypeError`, and a table nobody declared or inserted into is an error (a typo in
 * a rule must not pass here and break in production).
 */
export class InMemoryRecordLookup implements RecordLookup {
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

  exists(query: RecordLookupQuery): Promise<boolean> {
    // Run inside the promise: a bad query rejects, as the SQL adapter's does, instead of throwing.
    return Promise.resolve(query).then((checked) => this.find(checked));
  }

  private find(query: RecordLookupQuery): boolean {
    checkIdentifiers(query);
    const rows = this.tables.get(query.table);
    if (rows === undefined) throw new Error(`No table named ${query.table}`);
    const { column, value, ignore } = query;
    return rows.some((row) => equals(row[column], value) && (ignore === undefined || differs(row[ignore.column], ignore.value)));
  }
}

/*
 * Both engines compare `5` and `'5'` as equal against a number column, so cells are compared
 * as text. NULL (or a missing cell) is neither equal to nor different from anything, as in
 * SQL, where `NULL = ?` and `NULL <> ?` are both not true.
 */
function equals(cell: Cell | undefined, value: string | number): boolean {
  return cell !== undefined && cell !== null && String(cell) === String(value);
}

function differs(cell: Cell | undefined, value: string | number): boolean {
  return cell !== undefined && cell !== null && String(cell) !== String(value);
}
