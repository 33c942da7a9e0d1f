/**
 * The data layer at scale (issue 13's targets, p95 of each measured call):
 * - `paginate` over a 1 000 000-row table on SQLite: the first page (with its total) and page
 *   10 000 by cursor, each under 20 ms;
 * - full-text search over 100 000 rows on SQLite and PostgreSQL: under 25 ms per search, and the
 *   top 10 of 200 queries overlapping at least 0.8 between the engines.
 * Rows are seeded by SQL (`WITH RECURSIVE`) and by `insertMany` in one transaction. Run:
 * `npx tsx bench/models-scale.bench.ts` (BENCH_ROWS=100000 for a quick run; BENCH_PARTS=paginate or
 * search for one half; BENCH_RANKED_QUERIES=n ranked searches per engine, all 200 by default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { AesGcmSecretBox } from '../adapters/crypto/aes-gcm-secret-box.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { Db } from '../adapters/persistence/mikro-orm/models/db.js';
import { SqlFileMigrator } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { FRAMEWORK_ROOT } from '../composition/app.js';
import { CryptoRandomSource } from '../adapters/random/crypto-random-source.js';
import { column, key } from '../domain/data/columns.js';
import { defineModel } from '../domain/data/model.js';
import { encodeCursor } from '../domain/data/pages.js';
import { searchMigrationSql } from '../domain/data/search.js';
import { createTableSql } from '../domain/data/table-sql.js';
import { Secret } from '../domain/shared/secret.js';
import { BenchDatabase } from './support/bench-database.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const SEARCH_ROWS = 100_000;
const RANKED = Number(process.env['BENCH_RANKED_QUERIES'] ?? 200);
/** Which parts run: `paginate`, `search` or both (the default). */
const PARTS = (process.env['BENCH_PARTS'] ?? 'paginate,search').split(',');
const Item = defineModel('items', { id: key.integer(), title: column.string(), price: column.integer() });
const Article = defineModel('articles', { id: key.integer(), title: column.string(), body: column.string() }, { search: ['title', 'body'] });

/** Common English words, so both engines' stemmers and stop lists meet real text. */
const WORDS = `garden kitchen table chair window door river mountain forest city village market street bridge
train station ticket coffee bread cheese apple orange lemon sugar butter water paper letter story history
music guitar piano singer dancer painter picture camera movie theatre ticket planet rocket engine machine
computer keyboard printer network server database query search index number money price market trade
winter summer spring autumn morning evening night weather storm cloud rain snow sunshine garden flower
running walking swimming reading writing cooking baking painting building driving flying sailing fishing
doctor teacher student farmer baker builder driver pilot sailor writer reader player runner worker leader
happy quick quiet bright dark heavy light small large ancient modern simple famous strange gentle golden`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

/** A small deterministic generator (mulberry32), so both engines get the same rows and queries. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(next: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

interface Timing {
  p50: number;
  p95: number;
  mean: number;
  /** This process's CPU per call (for SQLite the whole query; for PostgreSQL the client's part). */
  cpu: number;
}

async function p95(times: number, work: (n: number) => Promise<unknown>): Promise<Timing> {
  for (let n = 0; n < 5; n++) await work(n);
  const samples: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let n = 0; n < times; n++) {
    const start = performance.now();
    await work(n);
    samples.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  samples.sort((a, b) => a - b);
  const at = (share: number): number => samples[Math.min(samples.length - 1, Math.ceil(samples.length * share) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length, cpu: (cpu.user + cpu.system) / 1000 / times };
}

const line = (name: string, result: Timing, target: number) =>
  console.log(
    `  ${name.padEnd(40)} p50 ${result.p50.toFixed(2).padStart(7)} ms   p95 ${result.p95.toFixed(2).padStart(7)} ms   mean ${result.mean.toFixed(2).padStart(7)} ms   CPU ${result.cpu.toFixed(2).padStart(6)} ms   target p95 < ${target} ms ${result.p95 < target ? 'met' : 'MISSED'}   (load ${loadavg()[0]?.toFixed(1)})`,
  );

/** The database as an fw app has it: the framework's migrations run (SQLite transactions take their write lock on its table). */
async function migrated(database: Database): Promise<Database> {
  await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }], new SystemClock()).migrate();
  return database;
}

function open(database: Database): Db {
  return Db.connect(database, { box: new AesGcmSecretBox(Buffer.alloc(32, 1), new CryptoRandomSource()), clock: new SystemClock() });
}

async function paginateBench(database: Database): Promise<void> {
  const db = open(database);
  let start = performance.now();
  await database.raw.session(async (sql) => {
    await sql.exec(createTableSql(Item, 'sqlite'));
    await sql.exec(`INSERT INTO items (title, price, created_at, updated_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      SELECT 'Item ' || i, i % 997, strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch') FROM n`);
    await sql.exec('CREATE INDEX items_latest ON items (created_at, id)');
  });
  await db.verify([Item]);
  console.log(`\nSQLite, ${ROWS.toLocaleString('en')} rows (seeded in ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  const pages = Math.floor(ROWS / 50);
  const deep = Math.min(10_000, pages);
  line('paginate(50), page 1 with total', await p95(100, () => db.query(Item).paginate(50, 1)), 20);
  line(`cursorPaginate(50) by id, page ${deep}`, await p95(100, (n) => db.query(Item).cursorPaginate(50, encodeCursor([(deep - 1 - (n % 50)) * 50]))), 20);
  start = performance.now();
  const tail = await db.query(Item).latest().offset((deep - 1) * 50 - 1).first();
  const offsetTime = performance.now() - start;
  const cursor = encodeCursor([tail?.created_at?.toISOString() ?? null, tail?.id ?? 0]);
  line(`cursorPaginate(50) latest(), page ${deep}`, await p95(100, () => db.query(Item).latest().cursorPaginate(50, cursor)), 20);
  console.log(`  (the same page by OFFSET took ${offsetTime.toFixed(1)} ms once)`);
}

interface SearchRun {
  label: string;
  /** Top 10 of `search(q)` (ranked), for the first RANKED queries. */
  tops: string[][];
  /** Top 10 of `whereSearch(q).latest()`, for every query. */
  filtered: string[][];
}

async function searchBench(label: string, database: Database, queries: readonly string[]): Promise<SearchRun> {
  const db = open(database);
  await database.raw.session(async (sql) => {
    await sql.exec(createTableSql(Article, database.engine));
    // With the (created_at, id) index the helper makes for a model with timestamps: newest-first pages (and ties of equal relevance) walk it.
    await sql.exec(searchMigrationSql(Article, database.engine).up);
  });
  await db.verify([Article]);
  const next = random(42);
  const rows = Array.from({ length: SEARCH_ROWS }, (_, n) => ({ title: `${words(next, 3 + (n % 4))}`, body: words(next, 20 + (n % 20)) }));
  const start = performance.now();
  await db.transaction((tx) => tx.query(Article).insertMany(rows));
  if (database.engine === 'postgres') await db.sql('ANALYZE articles').fetchAs();
  console.log(`\n${label}, search over ${SEARCH_ROWS.toLocaleString('en')} rows (seeded in ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  const ranked = queries.slice(0, RANKED);
  line(`search(q).limit(10), ${ranked.length} queries`, await p95(ranked.length, (n) => db.query(Article).search(ranked[n] ?? '').limit(10).get()), 25);
  line(`whereSearch(q).latest().paginate(20), ${queries.length} q.`, await p95(queries.length, (n) => db.query(Article).whereSearch(queries[n % queries.length] ?? '').latest().paginate(20)), 25);
  const tops: string[][] = [];
  const filtered: string[][] = [];
  for (const query of ranked) tops.push((await db.query(Article).search(query).limit(10).pluck('id')).map(String));
  for (const query of queries) filtered.push((await db.query(Article).whereSearch(query).latest().limit(10).pluck('id')).map(String));
  return { label, tops, filtered };
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-models-scale-'));
try {
  const sqlite = await openDatabase({ engine: 'sqlite', path: join(dir, 'scale.sqlite') });
  const next = random(7);
  const queries = Array.from({ length: 200 }, (_, n) => {
    const text = words(next, 1 + (n % 2));
    // Every fourth query is a prefix, as a visitor types it.
    return n % 4 === 3 ? text.slice(0, Math.max(3, text.length - 2)) : text;
  });
  const runs: SearchRun[] = [];
  try {
    if (PARTS.includes('paginate')) await paginateBench(sqlite);
  } finally {
    await sqlite.close();
  }
  if (PARTS.includes('search')) {
    const searchSqlite = await migrated(await openDatabase({ engine: 'sqlite', path: join(dir, 'search.sqlite') }));
    try {
      runs.push(await searchBench('SQLite', searchSqlite, queries));
    } finally {
      await searchSqlite.close();
    }
    const server = new BenchDatabase();
    const made = await server.create();
    if ('problem' in made) {
      console.log(`\nPostgreSQL skipped: ${made.problem}`);
    } else {
      const postgres = await migrated(await openDatabase({ engine: 'postgres', url: new Secret(made.url) }));
      try {
        runs.push(await searchBench('PostgreSQL', postgres, queries));
      } finally {
        await postgres.close();
        await server.drop();
      }
    }
    const [a, b] = runs;
    if (a !== undefined && b !== undefined) {
      const overlap = (left: string[][], right: string[][]): { value: number; count: number } => {
        let sum = 0;
        let counted = 0;
        for (let n = 0; n < left.length; n++) {
          const [one, other] = [left[n] ?? [], right[n] ?? []];
          if (one.length === 0 && other.length === 0) continue;
          sum += one.filter((id) => other.includes(id)).length / Math.max(one.length, other.length);
          counted++;
        }
        return { value: counted === 0 ? Number.NaN : sum / counted, count: counted };
      };
      for (const [name, result] of [['search(q) ranked', overlap(a.tops, b.tops)], ['whereSearch(q).latest()', overlap(a.filtered, b.filtered)]] as const) {
        console.log(`\n  top-10 overlap SQLite vs PostgreSQL, ${name}, ${result.count} queries: ${result.value.toFixed(3)} (target >= 0.8 ${result.value >= 0.8 ? 'met' : 'MISSED'})`);
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
