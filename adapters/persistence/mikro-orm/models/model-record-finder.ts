import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import { checkRecordQuery } from '../../../../ports/record-finder.js';
import type { FoundRow, RecordFinder, RecordQuery } from '../../../../ports/record-finder.js';
import type { Db } from './db.js';

/**
 * Route model binding over both kinds of model: a `defineModel` model is read through the
 * data layer (the row decoded as `RowOf<M>`), a bare table by the SQL finder as before.
 */
export class ModelRecordFinder implements RecordFinder {
  constructor(
    private readonly tables: RecordFinder,
    private readonly db: Db,
  ) {}

  async findOne(query: RecordQuery): Promise<FoundRow | null> {
    if (query.model === undefined) return this.tables.findOne(query);
    checkRecordQuery(query);
    try {
      return await this.db.query(query.model).where(query.where as never).first();
    } catch (error) {
      // A value the column cannot hold (text for an integer column) names no row: a 404.
      if (error instanceof InvalidQuery && error.code === 'bad_value') return null;
      throw error;
    }
  }
}
