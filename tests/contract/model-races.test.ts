import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { createTableSql } from '../../domain/data/table-sql.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { Counter } from '../support/race-counter.js';

const WORKER = fileURLToPath(new URL('../support/race-worker.ts', import.meta.url));

/** Runs the worker in a process of its own and resolves when it has exited cleanly. */
function race(url: string, mode: 'increment' | 'first-or-create', times: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, url, mode, String(times)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => (code === 0 && output.includes('done') ? resolve() : reject(new Error(`the ${mode} racer exited with ${code}: ${output}`))));
  });
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`races on ${engine.name}`, () => {
    const database = useMigratedDatabase(engine);
    let db: Db;

    beforeEach(async () => {
      await database().raw.session((sql) => sql.exec(`DROP TABLE IF EXISTS counters; ${createTableSql(Counter, engine.name)} CREATE UNIQUE INDEX counters_name ON counters (name);`));
      db = Db.connect(database(), { box: new AesGcmSecretBox(Buffer.alloc(32, 1), new CryptoRandomSource()), clock: new FixedClock() });
    });

    it('two processes incrementing one row 1000 times each through transactionRetrying lose no update', async () => {
      await db.query(Counter).create({ name: 'shared', hits: 0 });
      await Promise.all([race(engine.url(), 'increment', 1000), race(engine.url(), 'increment', 1000)]);
      expect((await db.query(Counter).where('name', 'shared').firstOrFail()).hits).toBe(2000);
    }, 120_000);

    it('two processes firstOrCreate-ing the same unique keys make one row each', async () => {
      await Promise.all([race(engine.url(), 'first-or-create', 200), race(engine.url(), 'first-or-create', 200)]);
      expect(await db.query(Counter).count()).toBe(200);
    }, 120_000);
  });
}
