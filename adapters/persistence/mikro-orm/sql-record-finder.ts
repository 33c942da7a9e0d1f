import { checkRecordQuery } from '../../../ports/record-finder.js';
import type { FoundRow, RecordFinder, RecordQuery } from '../../../ports/record-finder.js';
import type { RawSql } from './raw-sql.js';

/*
 * PostgreSQL refuses to compare a column with a value its type cannot hold: 22P02 (`'abc'`
 * against a uuid or integer column) and 22003 (a number past an `integer` column's range).
 * Such a value equals no stored value, so it is no row, as on SQLite; anything else fails.
 */
const NO_SUCH_VALUE = new Set(['22P02', '22003']);

/**
 * `RecordFinder` in SQL, written like `SqlRecordLookup`: checked names, quoted (a reserved
 * word like `user` still works), values as parameters. `SELECT *`: the row is the app's.
 */
export class SqlRecordFinder implements RecordFinder {
  constructor(private readonly raw: RawSql) {}

  async findOne(query: RecordQuery): Promise<FoundRow | null> {
    checkRecordQuery(query);
    const params: Array<string | number> = [];
    const conditions = Object.entries(query.where).map(([column, value]) => {
      if (value === null) return `"${column}" IS NULL`;
      params.push(value);
      return `"${column}" = ?`;
    });
    const sql = `SELECT * FROM "${query.table}" WHERE ${conditions.join(' AND ')} LIMIT 1`;
    try {
      const [row] = await this.raw.session((session) => session.query(sql, params));
      return row ?? null;
    } catch (error) {
      if (this.raw.engine === 'postgres' && NO_SUCH_VALUE.has((error as { code?: unknown }).code as string)) return null;
      throw error;
    }
  }
}
