/**
 * What the ORM costs on the hottest read of a session-based app: loading the signed-in user.
 * Baseline: the same SELECT as a prepared statement on the same SQLite connection. Prints
 * the ratio, measured in this run, so machines of any speed compare.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import { MikroOrmUserRepository } from '../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlFileMigrator } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { InMemoryUserRepository } from '../adapters/persistence/memory/in-memory-user-repository.js';
import { FRAMEWORK_ROOT } from '../composition/app.js';

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-'));
const database = await openDatabase({ engine: 'sqlite', path: join(dir, 'bench.sqlite') });
try {
  await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }], new SystemClock()).migrate();
  const orm = new MikroOrmUserRepository(database.orm, database.raw);
  const memory = new InMemoryUserRepository();
  const now = new Date();
  for (let n = 0; n < 1000; n++) {
    const user = { name: `User ${n}`, email: `user${n}@example.com`, passwordHash: null, emailVerifiedAt: now, sessionEpoch: 0, createdAt: now, updatedAt: now };
    await orm.add(user);
    await memory.add(user);
  }

  let n = 0;
  const nextEmail = () => `user${(n++ * 7919) % 1000}@example.com`;
  const bench = new Bench({ time: 1500, warmup: true });
  bench
    .add('raw SQL (baseline)', async () => {
      await database.raw.session((sql) => sql.query('SELECT * FROM users WHERE email = ?', [nextEmail()]));
    })
    .add('MikroOrmUserRepository.findByEmail', async () => {
      await orm.findByEmail(nextEmail());
    })
    .add('InMemoryUserRepository.findByEmail', async () => {
      await memory.findByEmail(nextEmail());
    });
  await bench.run();

  const baseline = bench.tasks[0]?.result;
  const baselineMean = baseline && 'latency' in baseline ? baseline.latency.mean : NaN;
  for (const task of bench.tasks) {
    const result = task.result;
    if (!result || !('latency' in result)) continue;
    const mean = result.latency.mean;
    console.log(
      `${task.name.padEnd(38)} ${(1000 / mean).toFixed(0).padStart(8)} ops/s  ${(mean * 1000).toFixed(1).padStart(8)} µs  ×${(mean / baselineMean).toFixed(2)} of baseline`,
    );
  }
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
