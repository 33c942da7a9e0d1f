import { checkIdentifiers } from '../../../ports/record-lookup.js';
import type { RecordLookup, RecordLookupBatch, RecordLookupQuery } from '../../../ports/record-lookup.js';
import type { RawSql } from './raw-sql.js';

/**
 * SQLite refuses a compound SELECT of more than 500 parts; a list field longer than this
 * takes one statement per chunk.
 */
const PROBES_PER_STATEMENT = 200;

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

  /**
   * One statement for many lookups in one table: a `UNION ALL` of one `EXISTS` per value, each the very
   * comparison `exists` makes (so `'5'` finds id 5, and PostgreSQL infers each parameter's
   * type from the column, as it does there), each answered from the column's index. An
   * `IN (...)` list would need the found cells matched back to the values in code, where the
   * engines' own conversions ('05' against an integer column) are easy to get wrong.
   */
  async existsEach(batch: RecordLookupBatch): Promise<boolean[]> {
    const { table, probes } = batch;
    for (const probe of probes) checkIdentifiers({ table, ...probe });
    const found = new Array<boolean>(probes.length).fill(false);
    if (probes.length === 0) return found;
    await this.raw.session(async (session) => {
      for (let start = 0; start < probes.length; start += PROBES_PER_STATEMENT) {
        const params: Array<string | number> = [];
        const parts = probes.slice(start, start + PROBES_PER_STATEMENT).map(({ column, value, ignore }, offset) => {
          params.push(value);
          let condition = `"${column}" = ?`;
          if (ignore !== undefined) {
            condition += ` AND "${ignore.column}" <> ?`;
            params.push(ignore.value);
          }
          return `SELECT ${start + offset} AS i WHERE EXISTS (SELECT 1 FROM "${table}" WHERE ${condition})`;
        });
        const rows = await session.query<{ i: number | string }>(parts.join(' UNION ALL '), params);
        for (const row of rows) found[Number(row.i)] = true;
      }
    });
    return found;
  }
}
