import { checkIdentifiers } from '../../../ports/record-lookup.js';
import type { RecordLookup, RecordLookupQuery } from '../../../ports/record-lookup.js';
import type { RawSql } from './raw-sql.js';

/**
 * `RecordLookup` in SQL. The rule names any table (an app's own too), which the ORM's
 * mappings do not know, so this writes the one statement itself: names are checked plain
 * identifiers (quoted so a reserved word like `user` still works), values are parameters.
 */
export class SqlRecordLookup implements RecordLookup {
  constructor(private readonly raw: RawSql) {}

  async exists(query: RecordLookupQuery): Promise<boolean> {
    checkIdentifiers(query);
    const { table, column, value, ignore } = query;
    const params: Array<string | number> = [value];
    let sql = `SELECT 1 FROM "${table}" WHERE "${column}" = ?`;
    if (ignore !== undefined) {
      sql += ` AND "${ignore.column}" <> ?`;
      params.push(ignore.value);
    }
    const rows = await this.raw.session((session) => session.query(`${sql} LIMIT 1`, params));
    return rows.length > 0;
  }
}
