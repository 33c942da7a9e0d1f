import { FrameworkError } from '../../../domain/shared/errors.js';
type Cell = string | number | boolean | null;
export type MemoryRow = Readonly<Record<string, Cell>>;

/**
 * Rows kept in a Map by table, for the in-memory record adapters. It fails where SQL fails: a
 * table nobody declared or inserted into is an error (a typo must not pass here and break in
 * production).
 */
export class MemoryTables {
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

  protected rowsOf(table: string): readonly MemoryRow[] {
    const rows = this.tables.get(table);
    if (rows === undefined) throw new FrameworkError('data.no-table', `No table named ${table}`);
    return rows;
  }
}

/**
 * Both engines compare `5` and `'5'` as equal against a number column, so cells are compared
 * as text. NULL (or a missing cell) equals nothing, as in SQL.
 */
export function cellEquals(cell: Cell | undefined, value: string | number): boolean {
  return cell !== undefined && cell !== null && String(cell) === String(value);
}

/** As in SQL, where `NULL <> ?` is not true either. */
export function cellDiffers(cell: Cell | undefined, value: string | number): boolean {
  return cell !== undefined && cell !== null && String(cell) !== String(value);
}
