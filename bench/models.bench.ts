/**
 * What fw's query layer costs over the same queries written directly on MikroORM's
 * QueryBuilder (the issue's target: at most 1.15x each), on SQLite and PostgreSQL, measured in
 * one run: a by-id lookup, a filtered page of 50, `whereIn` of 5000 ids, `hasMany` for 100
 * parents, and `insertMany` of 10 000 rows. Run: `npx tsx bench/models.bench.ts`.
 *
 * The machine is shared, so raw and fw run in alternating rounds (ROUNDS, each a fixed slice of
 * calls of one then the other, the order swapped every round) and the figure is the median of the
 * rounds' ratios: a burst of load lands on both sides of a round instead of on one task's whole
 * measurement. Wall time is what the target is about; this process's CPU time (which leaves out
 * PostgreSQL's own work, so its ratio is the stricter one) is printed beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dictionary } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/knex';
import { performance } from 'node:perf_hooks';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { AesGcmSecretBox } from '../adapters/crypto/aes-gcm-secret-box.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { Db } from '../adapters/persistence/mikro-orm/models/db.js';
import { entityName } from '../adapters/persistence/mikro-orm/models/entity-schema.js';
import { CryptoRandomSource } from '../adapters/random/crypto-random-source.js';
import { column, key } from '../domain/data/columns.js';
import { defineModel } from '../domain/data/model.js';
import { createTableSql } from '../domain/data/table-sql.js';
import { Secret } from '../domain/shared/secret.js';
import { BenchDatabase } from './support/bench-database.js';

const Author = defineModel('authors', { id: key.integer(), name: column.string() }, { timestamps: false });
const Book = defineModel('books', { id: key.integer(), title: column.string(), author_id: column.integer(), price: column.integer() }, { timestamps: false });
const BOOK_COLUMNS = ['id', 'title', 'author_id', 'price'];

async function run(label: string, database: Database): Promise<void> {
  await database.raw.session((sql) => sql.exec(`${createTableSql(Author, database.engine)}\n${createTableSql(Book, database.engine)}`));
  const db = Db.connect(database, { box: new AesGcmSecretBox(Buffer.alloc(32, 1), new CryptoRandomSource()), clock: new SystemClock() });
  await db.verify([Author, Book]);
  await db.query(Author).insertMany(Array.from({ length: 1000 }, (_, n) => ({ name: `Author ${n}` })));
  await db.query(Book).insertMany(Array.from({ length: 20_000 }, (_, n) => ({ title: `Book ${n}`, author_id: 1 + (n % 1000), price: n % 997 })));
  const em = database.orm.em.fork() as unknown as EntityManager;
  const qb = () => em.createQueryBuilder<Dictionary>(entityName(Book));
  const authors = await db.query(Author).orderBy('id').limit(100).get();
  const authorIds = authors.map((author) => author.id);
  const ids = Array.from({ length: 5000 }, (_, n) => 1 + ((n * 7) % 20_000));
  let n = 0;
  const nextId = () => 1 + ((n++ * 7919) % 20_000);

  const pairs: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
    ['by id', () => db.query(Book).find(nextId()), () => qb().select(BOOK_COLUMNS).where({ id: nextId() }).limit(1).execute('all', false)],
    [
      'filtered page of 50',
      () => db.query(Book).where('price', '>', n++ % 500).orderBy('id').limit(50).get(),
      () => qb().select(BOOK_COLUMNS).where({ price: { $gt: n++ % 500 } }).orderBy({ id: 'asc' }).limit(50).execute('all', false),
    ],
    ['whereIn of 5000 ids', () => db.query(Book).whereIn('id', ids).get(), () => qb().select(BOOK_COLUMNS).where({ id: { $in: ids } }).execute('all', false)],
    [
      'hasMany for 100 parents',
      () => db.relations.hasMany(authors, Book, 'author_id'),
      async () => {
        const rows = await qb().select(BOOK_COLUMNS).where({ author_id: { $in: authorIds } }).orderBy({ id: 'asc' }).execute<Dictionary[]>('all', false);
        const groups = new Map<unknown, Dictionary[]>(authorIds.map((id) => [id, []]));
        for (const row of rows) groups.get(Number(row['author_id']))?.push(row);
        return groups;
      },
    ],
  ];
  const bulk = Array.from({ length: 10_000 }, (_, i) => ({ title: `Bulk ${i}`, author_id: 1, price: i }));
  pairs.push([
    'insertMany 10 000',
    () => db.query(Book).insertMany(bulk),
    async () => {
      const perStatement = database.engine === 'sqlite' ? 500 : 7000;
      for (let start = 0; start < bulk.length; start += perStatement) await qb().insert(bulk.slice(start, start + perStatement)).execute('run', false);
    },
  ]);

  console.log(`\n${label} (median of ${ROUNDS} alternating rounds)`);
  for (const [name, fw, raw] of pairs) {
    const [rawCalls, fwCalls] = [await calibrate(raw), await calibrate(fw)];
    const calls = Math.max(1, Math.round((rawCalls + fwCalls) / 2));
    const rounds: Array<{ raw: Sample; fw: Sample }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        const r = await sample(raw, calls);
        rounds.push({ raw: r, fw: await sample(fw, calls) });
      } else {
        const f = await sample(fw, calls);
        rounds.push({ raw: await sample(raw, calls), fw: f });
      }
    }
    const wall = median(rounds.map((round) => round.fw.wall / round.raw.wall));
    const cpu = median(rounds.map((round) => round.fw.cpu / round.raw.cpu));
    const micros = (pick: (round: { raw: Sample; fw: Sample }) => number) => ((median(rounds.map(pick)) / calls) * 1000).toFixed(0).padStart(8);
    console.log(`  ${name.padEnd(24)} raw ${micros((round) => round.raw.wall)} µs   fw ${micros((round) => round.fw.wall)} µs   ×${wall.toFixed(2)}   (CPU ×${cpu.toFixed(2)})`);
  }
}

/** Rounds per pair, and the wall time one side of a round aims at. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const SLICE_MS = 40;

interface Sample {
  /** Milliseconds of wall time and of this process's CPU time for the slice's calls. */
  readonly wall: number;
  readonly cpu: number;
}

async function sample(work: () => Promise<unknown>, calls: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let call = 0; call < calls; call++) await work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** How many calls fill a slice (after warming up). */
async function calibrate(work: () => Promise<unknown>): Promise<number> {
  let calls = 1;
  for (;;) {
    const { wall } = await sample(work, calls);
    if (wall >= SLICE_MS / 4 || calls >= 100_000) return Math.max(1, Math.round((calls * SLICE_MS) / Math.max(wall, 0.001)));
    calls *= 4;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-models-'));
try {
  const sqlite = await openDatabase({ engine: 'sqlite', path: join(dir, 'bench.sqlite') });
  try {
    await run('SQLite (file)', sqlite);
  } finally {
    await sqlite.close();
  }
  const server = new BenchDatabase();
  const made = await server.create();
  if ('problem' in made) {
    console.log(`\nPostgreSQL skipped: ${made.problem}`);
  } else {
    const postgres = await openDatabase({ engine: 'postgres', url: new Secret(made.url) });
    try {
      await run('PostgreSQL', postgres);
    } finally {
      await postgres.close();
      await server.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
