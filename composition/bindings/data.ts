import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { ModelRecordFinder } from '../../adapters/persistence/mikro-orm/models/model-record-finder.js';
import { SqlRecordFinder } from '../../adapters/persistence/mikro-orm/sql-record-finder.js';
import { SqlRecordLookup } from '../../adapters/persistence/mikro-orm/sql-record-lookup.js';
import type { RecordFinder } from '../../ports/record-finder.js';
import type { RecordLookup } from '../../ports/record-lookup.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

/** The data layer, and the lookups validation rules and route model binding make. */
export const DATA_TOKENS = {
  /** The data layer: `ctx.service(TOKENS.db).query(Product)…`. */
  db: token<Db>('Db'),
  recordLookup: token<RecordLookup>('RecordLookup'),
  recordFinder: token<RecordFinder>('RecordFinder'),
} as const;

const T = DATA_TOKENS;

export function bindData({ container }: Binding): void {
  provide(container, T.db, [C.database, C.appKeys, C.clock, C.random], (database, keys, clock, random) =>
    Db.connect(database, { box: new AesGcmSecretBox(keys.modelEncryption, random), clock }),
  );
  provide(container, T.recordLookup, [C.database], (db) => new SqlRecordLookup(db.raw));
  provide(container, T.recordFinder, [C.database, T.db], (database, db) => new ModelRecordFinder(new SqlRecordFinder(database.raw), db));
}
