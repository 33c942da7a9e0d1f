import type { Dictionary } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/knex';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { entityName } from '../../adapters/persistence/mikro-orm/models/entity-schema.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { column, key } from '../../domain/data/columns.js';
import { defineModel } from '../../domain/data/model.js';
import { createTableSql } from '../../domain/data/table-sql.js';

const Author = defineModel('authors', { id: key.integer(), name: column.string() }, { timestamps: false });
const Book = defineModel('books', { id: key.integer(), title: column.string(), author_id: column.integer(), price: column.integer() }, { timestamps: false });
const BOOK_COLUMNS = ['id', 'title', 'author_id', 'price'];

/** One row of the models bench: fw's query and the same query on MikroORM's QueryBuilder. */
export interface ModelPair {
  readonly name: string;
  readonly fw: () => Promise<unknown>;
  readonly raw: () => Promise<unknown>;
}

/**
 * The models bench's tables (1000 authors, 20 000 books) made in `database`, and its pairs:
 * shared by the bench (bench/models.bench.ts) and its profile (bench/models.profile.ts).
 */
export async function modelPairs(database: Database): Promise<ModelPair[]> {
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

  const pairs: ModelPair[] = [
    { name: 'by id', fw: () => db.query(Book).find(nextId()), raw: () => qb().select(BOOK_COLUMNS).where({ id: nextId() }).limit(1).execute('all', false) },
    {
      name: 'filtered page of 50',
      fw: () => db.query(Book).where('price', '>', n++ % 500).orderBy('id').limit(50).get(),
      raw: () => qb().select(BOOK_COLUMNS).where({ price: { $gt: n++ % 500 } }).orderBy({ id: 'asc' }).limit(50).execute('all', false),
    },
    { name: 'whereIn of 5000 ids', fw: () => db.query(Book).whereIn('id', ids).get(), raw: () => qb().select(BOOK_COLUMNS).where({ id: { $in: ids } }).execute('all', false) },
    {
      name: 'hasMany for 100 parents',
      fw: () => db.relations.hasMany(authors, Book, 'author_id'),
      raw: async () => {
        const rows = await qb().select(BOOK_COLUMNS).where({ author_id: { $in: authorIds } }).orderBy({ id: 'asc' }).execute<Dictionary[]>('all', false);
        const groups = new Map<unknown, Dictionary[]>(authorIds.map((id) => [id, []]));
        for (const row of rows) groups.get(Number(row['author_id']))?.push(row);
        return groups;
      },
    },
  ];
  const bulk = Array.from({ length: 10_000 }, (_, i) => ({ title: `Bulk ${i}`, author_id: 1, price: i }));
  pairs.push({
    name: 'insertMany 10 000',
    fw: () => db.query(Book).insertMany(bulk),
    raw: async () => {
      const perStatement = database.engine === 'sqlite' ? 500 : 7000;
      for (let start = 0; start < bulk.length; start += perStatement) await qb().insert(bulk.slice(start, start + perStatement)).execute('run', false);
    },
  });
  return pairs;
}
