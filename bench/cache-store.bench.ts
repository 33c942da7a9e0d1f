/**
 * What a rate-limit counter costs on each CACHE_STORE, against the memory store measured in
 * this same run (so machines of any speed compare), and what the memory store holds after a
 * flood of one million distinct clients (target: under 64 MB of heap).
 *
 * - increments one at a time (the latency a throttled request pays), with tinybench;
 * - increments 64 at a time (throughput of a busy server), timed over a fixed number;
 * - PostgreSQL: a scratch database created on DATABASE_URL's server (or
 *   postgres://postgres@127.0.0.1:5432/test) and dropped after; Redis: REDIS_URL or
 *   redis://127.0.0.1:6379, keys under a prefix of this run, deleted after. An engine that
 *   cannot be reached is reported as skipped, never fatal: a benchmark informs.
 *
 * Run with `node --expose-gc` (the `bench` script does) so the heap is measured after a full
 * collection; without it the memory figure is marked as rough.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Bench } from 'tinybench';
import { FixedClock } from '../adapters/clock/fixed-clock.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { DEFAULT_MAX_KEYS, MemoryCacheStore } from '../adapters/cache/memory-cache-store.js';
import { RedisCacheStore } from '../adapters/cache/redis-cache-store.js';
import { SqlCacheStore } from '../adapters/cache/sql-cache-store.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { SqlFileMigrator } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { Limit, windowKey } from '../domain/http/rate-limits/rate-limit.js';
import { Secret } from '../domain/shared/secret.js';
import type { CacheStore } from '../ports/cache-store.js';
import { FRAMEWORK_ROOT } from '../composition/app.js';

const MEMORY_TARGET_MB = 64;
const FLOOD_CLIENTS = 1_000_000;
const CONCURRENCY = 64;
const LIMIT = Limit.perMinute(60);

/** The key a `.throttle(60, 60)` route counts a guest under: realistic length and shape. */
function clientKey(n: number, at: Date): string {
  return windowKey('route:POST /login', `ip:10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, LIMIT, at);
}

function heapUsedMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 ** 2;
}

/** One million distinct clients through a memory store with the given cap. */
function flood(maxKeys: number): { mb: number; kept: number; seconds: number } {
  const clock = new FixedClock('2026-08-01T12:00:00Z');
  const at = clock.now();
  const expiresAt = new Date(at.getTime() + 60_000);
  const before = heapUsedMb();
  const store = new MemoryCacheStore(clock, maxKeys);
  const started = performance.now();
  for (let n = 0; n < FLOOD_CLIENTS; n++) void store.increment(clientKey(n, at), expiresAt);
  const seconds = (performance.now() - started) / 1000;
  const mb = heapUsedMb() - before;
  const kept = store.size;
  return { mb, kept, seconds };
}

// ---- Memory first, on a quiet heap.
const exact = typeof (globalThis as { gc?: unknown }).gc === 'function';
const capped = flood(DEFAULT_MAX_KEYS);
const uncapped = flood(FLOOD_CLIENTS);
const rough = exact ? '' : ' (rough: run with node --expose-gc)';
console.log(`Memory store after ${FLOOD_CLIENTS.toLocaleString('en')} distinct clients${rough}:`);
console.log(
  `  default cap (${DEFAULT_MAX_KEYS.toLocaleString('en')} keys) ${capped.mb.toFixed(1).padStart(6)} MB heap, ${capped.kept.toLocaleString('en')} counters kept, ` +
    `${capped.seconds.toFixed(2)} s  ${capped.mb < MEMORY_TARGET_MB ? 'OK' : 'MISS'} (target < ${MEMORY_TARGET_MB} MB)`,
);
console.log(
  `  no effective cap (for scale)      ${uncapped.mb.toFixed(1).padStart(6)} MB heap, ${uncapped.kept.toLocaleString('en')} counters kept, ` +
    `${uncapped.seconds.toFixed(2)} s, ${((uncapped.mb * 1024 ** 2) / uncapped.kept).toFixed(0)} bytes a counter`,
);

// ---- Increments per store.
interface Candidate {
  name: string;
  store: CacheStore;
}

const candidates: Candidate[] = [{ name: 'memory', store: new MemoryCacheStore(new SystemClock()) }];
const cleanups: (() => Promise<void>)[] = [];
const skipped: string[] = [];
const clock = new SystemClock();
const migrations = [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }];

async function migrated(database: Database): Promise<Database> {
  await new SqlFileMigrator(database.raw, migrations, clock).migrate();
  return database;
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-cache-'));
cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
const sqlite = await migrated(await openDatabase({ engine: 'sqlite', path: join(dir, 'cache.sqlite') }));
cleanups.unshift(() => sqlite.close());
candidates.push({ name: 'SQLite (file)', store: new SqlCacheStore(sqlite.raw, clock) });

const pgServer = /^postgres(ql)?:\/\//u.test(process.env['DATABASE_URL'] ?? '') ? (process.env['DATABASE_URL'] as string) : 'postgres://postgres@127.0.0.1:5432/test';
try {
  const name = `fw_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgServer, connectionTimeoutMillis: 3000 });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  const postgres = await migrated(await openDatabase({ engine: 'postgres', url: new Secret(url.toString()) }));
  cleanups.unshift(async () => {
    await postgres.close();
    const client = new pg.Client({ connectionString: pgServer });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  candidates.push({ name: 'PostgreSQL', store: new SqlCacheStore(postgres.raw, clock) });
} catch (error) {
  skipped.push(`PostgreSQL skipped: ${(error as Error).message}`);
}

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const prefix = `fw-bench:${process.pid}-${randomBytes(3).toString('hex')}:`;
const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3000 });
probe.on('error', () => undefined);
try {
  await probe.connect();
  const redis = new RedisCacheStore({ url: redisUrl, prefix });
  cleanups.unshift(async () => {
    await redis.close();
    for (let cursor = '0'; ; ) {
      const [next, keys] = await probe.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await probe.del(...keys);
      if ((cursor = next) === '0') break;
    }
    probe.disconnect();
  });
  candidates.push({ name: 'Redis', store: redis });
} catch (error) {
  probe.disconnect();
  skipped.push(`Redis skipped: ${(error as Error).message}`);
}

try {
  // Ten thousand clients, counted over and over: the live set of a busy site, not a flood.
  let n = 0;
  const nextKey = () => clientKey((n++ * 7919) % 10_000, clock.now());
  const expiresAt = () => new Date(clock.now().getTime() + 60_000);

  const bench = new Bench({ time: 1500, warmup: true });
  for (const { name, store } of candidates) bench.add(name, () => store.increment(nextKey(), expiresAt()).then(() => undefined));
  await bench.run();

  /** Increments per second with CONCURRENCY of them in flight at all times. */
  async function concurrent(store: CacheStore, total: number): Promise<number> {
    let left = total;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await store.increment(nextKey(), expiresAt());
      }),
    );
    return total / ((performance.now() - started) / 1000);
  }
  const parallel = new Map<string, number>();
  for (const { name, store } of candidates) parallel.set(name, await concurrent(store, name === 'memory' ? 500_000 : 20_000));

  const sequential = new Map<string, number>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (result && 'latency' in result) sequential.set(task.name, 1000 / result.latency.mean);
  }
  const memorySequential = sequential.get('memory') ?? NaN;
  const memoryParallel = parallel.get('memory') ?? NaN;
  console.log('');
  console.log(`${'increments/s'.padEnd(16)} ${'one at a time'.padStart(14)} ${'of memory'.padStart(10)} ${`${CONCURRENCY} at once`.padStart(14)} ${'of memory'.padStart(10)}`);
  for (const { name } of candidates) {
    const one = sequential.get(name) ?? NaN;
    const many = parallel.get(name) ?? NaN;
    console.log(
      `${name.padEnd(16)} ${one.toFixed(0).padStart(14)} ${`×${(one / memorySequential).toPrecision(2)}`.padStart(10)} ` +
        `${many.toFixed(0).padStart(14)} ${`×${(many / memoryParallel).toPrecision(2)}`.padStart(10)}`,
    );
  }
  for (const line of skipped) console.log(line);
} finally {
  for (const cleanup of cleanups) await cleanup();
}
