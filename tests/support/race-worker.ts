/**
 * One racer of `tests/contract/model-races.test.ts`, in a process of its own:
 * `node --import tsx race-worker.ts <DATABASE_URL> increment|first-or-create <times>`.
 * Prints `done` when its work is committed.
 */
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { openDatabase } from '../../adapters/persistence/mikro-orm/database.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { parseConfig } from '../../composition/config.js';
import { TEST_APP_KEY } from './databases.js';
import { Counter } from './race-counter.js';

const [url = '', mode = '', times = '1'] = process.argv.slice(2);
const config = parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: url }, FRAMEWORK_ROOT);
const database = await openDatabase(config.database);
const db = Db.connect(database, { box: new AesGcmSecretBox(Buffer.alloc(32, 1), new CryptoRandomSource()), clock: new SystemClock() });
try {
  for (let round = 0; round < Number(times); round++) {
    if (mode === 'increment') {
      // Read, then write: a lost update if two transactions interleaved without waiting.
      await db.transactionRetrying(50, async (tx) => {
        const row = await tx.query(Counter).where('name', 'shared').lockForUpdate().firstOrFail();
        await tx.query(Counter).where('id', row.id).update({ hits: row.hits + 1 });
      });
    } else {
      await db.query(Counter).firstOrCreate({ name: `key-${round}` }, { hits: 0 });
    }
  }
  process.stdout.write('done\n');
} finally {
  await database.close();
}
