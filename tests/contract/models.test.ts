import { spawn } from 'node:child_process';
import { executionAsyncId } from 'node:async_hooks';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { Db, ModelTableMismatch } from '../../adapters/persistence/mikro-orm/models/db.js';
import { DecryptionFailed } from '../../adapters/persistence/mikro-orm/models/row-codec.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { COLUMN_TYPES, column, key } from '../../domain/data/columns.js';
import { InvalidQuery } from '../../domain/data/invalid-query.js';
import { RecordNotFound } from '../../domain/data/record-not-found.js';
import { defineModel } from '../../domain/data/model.js';
import type { RowOf } from '../../domain/data/model.js';
import { searchMigrationSql } from '../../domain/data/search.js';
import { createTableSql } from '../../domain/data/table-sql.js';
import { deriveAppKeys } from '../../domain/security/app-keys.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';

/*
 * The data layer's parity suite: every row below runs on a SQLite file and on PostgreSQL
 * against tables made from the spec's type table, through MikroORM's QueryBuilder.
 */

const Product = defineModel(
  'products',
  {
    id: key.integer(),
    name: column.string(),
    sku: column.string(),
    price: column.money(),
    weight: column.float().nullable(),
    active: column.boolean().default(true),
    status: column.enum(['draft', 'live']).default('draft'),
    tags: column.json<string[]>().default([]),
    opens: column.time().nullable(),
    launch: column.datetime().nullable(),
    release: column.date().nullable(),
    secret: column.encrypted().nullable(),
    ref: column.uuid().nullable(),
    note: column.skip(() => 'fresh'),
  },
  { softDeletes: true },
);
type Product = RowOf<typeof Product>;

const Tag = defineModel('tags', { id: key.ulid(), label: column.string() });
const Token = defineModel('tokens', { id: key.uuid(), label: column.string() }, { timestamps: false });
const Setting = defineModel('settings', { id: key.string(), value: column.string() });

/** Every hook call, in order, as `hook:name`; a name starting with `refuse` makes saving/deleting throw. */
const hookCalls: string[] = [];
const Note = defineModel(
  'notes',
  { id: key.integer(), title: column.string(), slug: column.string().nullable() },
  {
    softDeletes: true,
    hooks: {
      saving(row, creating) {
        hookCalls.push(`saving:${String(row['title'])}:${creating}`);
        if (String(row['title']).startsWith('refuse')) throw new Error('refused by saving');
        row['slug'] = String(row['title']).toLowerCase().replace(/\s+/gu, '-');
      },
      saved: (row, created) => void hookCalls.push(`saved:${String(row['title'])}:${created}`),
      deleting(row) {
        hookCalls.push(`deleting:${String(row['title'])}`);
        if (String(row['title']).startsWith('keep')) throw new Error('refused by deleting');
      },
      deleted: (row) => void hookCalls.push(`deleted:${String(row['title'])}`),
    },
  },
);

const Country = defineModel('countries', { id: key.integer(), name: column.string() }, { timestamps: false });
const Author = defineModel('authors', { id: key.integer(), name: column.string(), country_id: column.integer().nullable() }, { timestamps: false });
const Book = defineModel('books', { id: key.integer(), title: column.string(), author_id: column.integer().nullable(), price: column.money(), published: column.boolean() }, { softDeletes: true });

const Doc = defineModel(
  'docs',
  { id: key.integer(), title: column.string(), team_id: column.integer() },
  { softDeletes: true, scope: ({ team }) => (typeof team === 'number' ? { team_id: team } : null) },
);

const Post = defineModel('posts', { id: key.integer(), title: column.string(), body: column.string(), team_id: column.integer().default(1) }, { search: ['title', 'body'] });
const Plain = defineModel('plain_posts', { id: key.integer(), title: column.string() }, { search: ['title'], searchLanguage: 'simple' });

const MODELS = [Product, Tag, Token, Setting, Note, Country, Author, Book, Doc, Post, Plain];

/** A second process that holds SQLite's write lock for 400 ms while it adds 1 to a price. */
const HOLD_WRITE_LOCK = `
const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 5000');
db.exec('BEGIN IMMEDIATE');
db.prepare('UPDATE products SET price = price + 1 WHERE id = ?').run(Number(process.argv[2]));
process.stdout.write('locked\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
db.exec('COMMIT');
`;
const START = '2026-11-24T10:00:00.000Z';

function box(keyByte: number): AesGcmSecretBox {
  return new AesGcmSecretBox(deriveAppKeys(Buffer.alloc(32, keyByte)).modelEncryption, new CryptoRandomSource());
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`models on ${engine.name}`, () => {
    const database = useMigratedDatabase(engine);
    const clock = new FixedClock(START);
    let db: Db;

    beforeAll(async () => {
      await database().raw.session(async (sql) => {
        for (const model of [Post, Plain]) await sql.exec(searchMigrationSql(model, engine.name).down);
        for (const model of MODELS) await sql.exec(`DROP TABLE IF EXISTS "${model.table}"; ${createTableSql(model, engine.name)}`);
        await sql.exec('CREATE UNIQUE INDEX products_sku ON products (sku)');
        for (const model of [Post, Plain]) await sql.exec(searchMigrationSql(model, engine.name).up);
      });
      db = await Db.open(database(), { models: MODELS, box: box(7), clock });
    });

    beforeEach(async () => {
      clock.set(START);
      await database().raw.session(async (sql) => {
        for (const model of MODELS) await sql.exec(`DELETE FROM "${model.table}"`);
      });
    });

    let serial = 0;
    const product = (overrides: Partial<Product> = {}): Promise<Product> =>
      db.query(Product).create({ name: `Product ${++serial}`, sku: `sku-${serial}`, price: 100 * serial, ...overrides });

    describe('the type table and keys', () => {
      it('declares every column with the spec type of its engine', async () => {
        const declared =
          engine.name === 'sqlite'
            ? await db.sql(`select name, type from pragma_table_info('products')`).fetchAs<{ name: string; type: string }>()
            : await db.sql(`select column_name as name, upper(data_type) as type from information_schema.columns where table_name = 'products'`).fetchAs<{ name: string; type: string }>();
        const types = Object.fromEntries(declared.map((row) => [row.name, row.type]));
        const pgNames: Record<string, string> = { TIMESTAMPTZ: 'TIMESTAMP WITH TIME ZONE', TIMESTAMP: 'TIMESTAMP WITHOUT TIME ZONE', TIME: 'TIME WITHOUT TIME ZONE' };
        for (const [name, spec] of Product.columns) {
          const expected = COLUMN_TYPES[spec.kind][engine.name];
          expect(types[name], name).toBe(engine.name === 'postgres' ? (pgNames[expected] ?? expected) : expected);
        }
        expect(types['id']).toBe(engine.name === 'sqlite' ? 'INTEGER' : 'BIGINT');
      });

      it('reads back every kind of value as written, the same on both engines', async () => {
        const ref = '0f8fad5b-d9cb-469f-a165-70867728950e';
        const made = await product({ weight: 1.25, active: false, status: 'live', tags: ['a', 'b'], opens: '09:30', launch: '2026-12-01T08:15', release: '2026-12-24', secret: 'hunter2', ref });
        const [row] = await db.query(Product).where('id', made.id).get();
        expect(row).toMatchObject({ id: made.id, weight: 1.25, active: false, status: 'live', tags: ['a', 'b'], opens: '09:30:00', launch: '2026-12-01T08:15:00', release: '2026-12-24', secret: 'hunter2', ref, note: 'fresh' });
        expect(row?.created_at).toEqual(new Date(START));
        expect(typeof row?.id).toBe('number');
        expect(made).toEqual(row);
        // Rows are decoded in the driver's own objects: the key, the columns in their order, then skipped fields, as inserted rows are.
        expect(Object.keys(row ?? {})).toEqual(Object.keys(made));
      });

      it('numbers integer keys, makes ULID and UUID keys, and needs a string key from the app', async () => {
        const a = await product();
        const b = await product();
        expect(b.id).toBe(a.id + 1);
        const tag = await db.query(Tag).create({ label: 'x' });
        expect(tag.id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/u);
        expect((await db.query(Tag).find(tag.id))?.label).toBe('x');
        const token = await db.query(Token).create({ label: 'y' });
        expect(token.id).toMatch(/^[0-9a-f-]{36}$/u);
        expect((await db.query(Token).find(token.id))?.label).toBe('y');
        const [stored] = await db.sql(engine.name === 'sqlite' ? 'select typeof(id) as kind, length(id) as size from tokens' : `select pg_typeof(id)::text as kind from tokens`).fetchAs<{ kind: string; size?: number }>();
        expect(stored?.kind).toBe(engine.name === 'sqlite' ? 'blob' : 'uuid');
        await expect(db.query(Setting).create({ value: 'v' } as never)).rejects.toMatchObject({ code: 'bad_value' });
        const setting = await db.query(Setting).create({ id: 'site.name', value: 'fw' });
        await db.save(Setting, { ...setting, value: 'fw 2' });
        expect((await db.query(Setting).find('site.name'))?.value).toBe('fw 2');
        expect(await db.query(Setting).count()).toBe(1);
      });

      it('sets created_at and updated_at, and never writes a skipped field', async () => {
        const made = await product({ note: 'not stored' });
        expect(made.created_at).toEqual(new Date(START));
        clock.advance(60_000);
        const saved = await db.save(Product, { ...made, name: 'Renamed', note: 'still not stored' });
        expect(saved.updated_at).toEqual(new Date(Date.parse(START) + 60_000));
        const read = await db.query(Product).find(made.id);
        expect(read).toMatchObject({ name: 'Renamed', note: 'fresh', created_at: new Date(START), updated_at: new Date(Date.parse(START) + 60_000) });
      });

      it('refuses a value of the wrong type before writing anything', async () => {
        await expect(product({ price: 'ten' as never })).rejects.toMatchObject({ code: 'bad_value' });
        await expect(product({ status: 'sold' as never })).rejects.toMatchObject({ code: 'bad_value' });
        await expect(product({ release: '24/12/2026' })).rejects.toMatchObject({ code: 'bad_value' });
        await expect(db.query(Product).where('id', 'abc' as never).get()).rejects.toBeInstanceOf(InvalidQuery);
        expect(await db.query(Product).count()).toBe(0);
      });

      it('stops start-up naming a column the table does not have', async () => {
        const Typo = defineModel('products', { name: column.string(), prce: column.money() });
        await expect(Db.open(database(), { models: [Typo], box: box(7), clock })).rejects.toThrow(/column 'prce' is not in the table 'products'/u);
        await expect(Db.open(database(), { models: [defineModel('nothing_here', {})], box: box(7), clock })).rejects.toBeInstanceOf(ModelTableMismatch);
      });
    });

    describe('encrypted columns', () => {
      it('stores the value sealed and reads it plain', async () => {
        const made = await product({ secret: 'hunter2' });
        const [stored] = await db.sql('select secret from products where id = ?', [made.id]).fetchAs<{ secret: string }>();
        expect(stored?.secret).not.toContain('hunter2');
        expect(stored?.secret).toMatch(/^v1\./u);
        expect((await db.query(Product).find(made.id))?.secret).toBe('hunter2');
        expect((JSON.parse(JSON.stringify(made)) as Product).secret).toBe('hunter2');
      });

      it('refuses an encrypted column in a condition or an order', async () => {
        await expect(db.query(Product).where('secret', 'hunter2').get()).rejects.toMatchObject({ code: 'encrypted_condition' });
        await expect(db.query(Product).orderBy('secret').get()).rejects.toMatchObject({ code: 'encrypted_condition' });
      });

      it('fails on a tampered value or another APP_KEY, never returning garbage', async () => {
        const made = await product({ secret: 'hunter2' });
        const other = await Db.open(database(), { models: [Product], box: box(8), clock });
        await expect(other.query(Product).find(made.id)).rejects.toBeInstanceOf(DecryptionFailed);
        const [stored] = await db.sql('select secret from products where id = ?', [made.id]).fetchAs<{ secret: string }>();
        const sealed = stored?.secret ?? '';
        // Change the second-to-last character (six bits of the tag, all used): to 'B' if it is
        // 'A', else to 'A'. Deciding by the last character instead left the value unchanged
        // whenever the one before already was 'A' (one run in 64).
        const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
        expect(flipped).not.toBe(sealed);
        await db.sql('update products set secret = ? where id = ?', [flipped, made.id]).fetchAs();
        await expect(db.query(Product).find(made.id)).rejects.toBeInstanceOf(DecryptionFailed);
      });
    });

    describe('conditions', () => {
      it('compares with every listed operator and refuses others', async () => {
        for (const price of [100, 200, 300]) await product({ price });
        const prices = async (op: string, value: number): Promise<number[]> => db.query(Product).where('price', op as never, value).orderBy('price').pluck('price');
        expect(await prices('=', 200)).toEqual([200]);
        expect(await prices('!=', 200)).toEqual([100, 300]);
        expect(await prices('<>', 200)).toEqual([100, 300]);
        expect(await prices('<', 200)).toEqual([100]);
        expect(await prices('<=', 200)).toEqual([100, 200]);
        expect(await prices('>', 200)).toEqual([300]);
        expect(await prices('>=', 200)).toEqual([200, 300]);
        await expect(prices('; drop table products; --', 1)).rejects.toMatchObject({ code: 'bad_operator' });
        await expect(db.query(Product).where('nmae' as never, 'x' as never).get()).rejects.toMatchObject({ code: 'unknown_column' });
        expect(await db.query(Product).count()).toBe(3);
      });

      it('every condition holds, several on one column or on the scope\'s column included', async () => {
        for (const price of [100, 200, 300]) await product({ price });
        expect(await db.query(Product).where('price', '>', 100).where('price', '<', 300).pluck('price')).toEqual([200]);
        expect(await db.query(Product).where('price', 100).where('price', 300).pluck('price')).toEqual([]);
        expect(await db.query(Product).where('price', 300).whereRaw('"price" = ?', [100]).pluck('price')).toEqual([]);
        await db.query(Doc).insertMany([{ title: 'a1', team_id: 1 }, { title: 'b1', team_id: 2 }]);
        expect(await db.withScope({ team: 1 }).query(Doc).where('team_id', 2).pluck('title')).toEqual([]);
      });

      it('like and not like are operators; whereLike ignores case on both engines', async () => {
        await product({ name: 'Blue Mug' });
        await product({ name: 'red mug' });
        await product({ name: 'Plate' });
        expect(await db.query(Product).whereLike('name', '%MUG%').orderBy('name').pluck('name')).toEqual(['Blue Mug', 'red mug']);
        expect(await db.query(Product).where('name', 'not like', '%ug').pluck('name')).toEqual(['Plate']);
      });

      it('whereIn of nothing matches nothing, whereNotIn of nothing matches everything', async () => {
        await product();
        await product();
        expect(await db.query(Product).whereIn('id', []).count()).toBe(0);
        expect(await db.query(Product).whereNotIn('id', []).count()).toBe(2);
      });

      it('sends over 1000 whereIn values as one JSON array parameter', async () => {
        const made = [await product(), await product(), await product()];
        const ids = [made[0]!.id, made[2]!.id, ...Array.from({ length: 4998 }, (_, index) => 1_000_000 + index)];
        const query = db.query(Product).whereIn('id', ids);
        const { params } = query.toSql();
        expect(params).toHaveLength(1);
        expect(await query.orderBy('id').pluck('id')).toEqual([made[0]!.id, made[2]!.id]);
        expect(await db.query(Product).whereNotIn('id', ids).pluck('id')).toEqual([made[1]!.id]);
        const tokens = [await db.query(Token).create({ label: 'a' }), await db.query(Token).create({ label: 'b' })];
        const many = [tokens[1]!.id, ...Array.from({ length: 1200 }, () => crypto.randomUUID())];
        expect(await db.query(Token).whereIn('id', many).pluck('label')).toEqual(['b']);
      });

      it('whereAny, whereAll, null, between and when', async () => {
        await product({ name: 'a', price: 100, weight: null });
        await product({ name: 'b', price: 200, weight: 2 });
        await product({ name: 'c', price: 300, weight: 3 });
        const names = (build: (q: ReturnType<typeof db.query<typeof Product>>) => unknown): Promise<string[]> => {
          const query = db.query(Product).orderBy('name');
          build(query);
          return query.pluck('name');
        };
        expect(await names((q) => q.whereAny((or) => or.where('price', 100).where('price', 300)))).toEqual(['a', 'c']);
        expect(await names((q) => q.whereAll((and) => and.where('price', '>', 100).where('weight', '<', 3)))).toEqual(['b']);
        expect(await names((q) => q.whereAny(() => undefined))).toEqual([]);
        expect(await names((q) => q.whereNull('weight'))).toEqual(['a']);
        expect(await names((q) => q.whereNotNull('weight'))).toEqual(['b', 'c']);
        expect(await names((q) => q.whereBetween('price', 150, 300))).toEqual(['b', 'c']);
        expect(await names((q) => q.when('', (w) => w.where('name', 'a')))).toEqual(['a', 'b', 'c']);
        expect(await names((q) => q.when('b', (w, value) => w.where('name', value)))).toEqual(['b']);
      });

      it('whereRaw binds its values, so hostile text is only a value', async () => {
        await product({ name: "O'Brien" });
        expect(await db.query(Product).whereRaw('"name" = ?', ["O'Brien"]).count()).toBe(1);
        expect(await db.query(Product).whereRaw('"name" = ?', ["x' or '1'='1"]).count()).toBe(0);
      });
    });

    describe('order, size and reading', () => {
      it('latest() is created_at then id, newest first; limit and offset', async () => {
        const a = await product();
        clock.advance(1000);
        const b = await product();
        const c = await product();
        expect(await db.query(Product).latest().pluck('id')).toEqual([c.id, b.id, a.id]);
        expect(db.query(Token).latest().toSql().sql).toMatch(/order by .*id.* desc/iu);
        expect(await db.query(Product).orderBy('id').offset(1).limit(1).pluck('id')).toEqual([b.id]);
        expect(await db.query(Product).orderByDesc('price').pluck('id')).toEqual([c.id, b.id, a.id]);
        // Two orders both apply: price first, then id.
        await db.query(Product).where('id', c.id).update({ price: a.price });
        expect(await db.query(Product).orderBy('price').orderByDesc('id').pluck('id')).toEqual([c.id, a.id, b.id]);
      });

      it('first, find, findMany in the order asked, missing skipped', async () => {
        const [a, b, c] = [await product(), await product(), await product()];
        expect((await db.query(Product).orderByDesc('id').first())?.id).toBe(c.id);
        expect(await db.query(Product).find(999_999)).toBeNull();
        expect((await db.query(Product).findMany([c.id, 999_999, a.id, c.id])).map((row) => row.id)).toEqual([c.id, a.id]);
        expect(b.id).toBeGreaterThan(a.id);
      });

      it('count, exists and the aggregates', async () => {
        expect(await db.query(Product).exists()).toBe(false);
        expect(await db.query(Product).sum('price')).toBe(0);
        expect(await db.query(Product).max('price')).toBeNull();
        for (const price of [100, 200, 600]) await product({ price });
        expect(await db.query(Product).count()).toBe(3);
        expect(await db.query(Product).exists()).toBe(true);
        expect(await db.query(Product).sum('price')).toBe(900);
        expect(await db.query(Product).avg('price')).toBe(300);
        expect(await db.query(Product).min('price')).toBe(100);
        expect(await db.query(Product).max('price')).toBe(600);
        expect(await db.query(Product).where('price', '>', 150).count()).toBe(2);
      });

      it('pluck, selectAs, groupBy with havingRaw', async () => {
        await product({ name: 'a', status: 'live' });
        await product({ name: 'b', status: 'live' });
        await product({ name: 'c' });
        expect(await db.query(Product).orderBy('name').selectAs(['name', 'status'])).toEqual([
          { name: 'a', status: 'live' },
          { name: 'b', status: 'live' },
          { name: 'c', status: 'draft' },
        ]);
        expect(await db.query(Product).groupBy('status').havingRaw('count(*) > ?', [1]).pluck('status')).toEqual(['live']);
      });

      it('chunk walks by id in the given size, ignoring the query order and limit', async () => {
        const made = [];
        for (let index = 0; index < 7; index++) made.push(await product());
        const seen: number[][] = [];
        await db.query(Product).orderByDesc('price').limit(2).chunk(3, (rows) => {
          seen.push(rows.map((row) => row.id));
        });
        expect(seen).toEqual([made.slice(0, 3), made.slice(3, 6), made.slice(6)].map((rows) => rows.map((row) => row.id)));
        let calls = 0;
        await db.query(Product).chunk(2, () => {
          calls++;
          return false;
        });
        expect(calls).toBe(1);
      });

      it('toSql gives the statement and its bound values', () => {
        const { sql, params } = db.query(Product).where('name', 'x').toSql();
        expect(sql).toMatch(/select .* from [`"]products[`"]/iu);
        expect(params).toEqual(['x']);
      });

      it("toSql(dialect) compiles for either engine, with that engine's value encodings, running nothing", async () => {
        const query = db.query(Product).where('active', true).where('ref', '0190a5c8-0000-7000-8000-000000000001').whereLike('name', 'M%').orderBy('price');
        const sqlite = query.toSql('sqlite');
        const postgres = query.toSql('postgres');
        expect(sqlite.params.slice(0, 1)).toEqual([1]);
        expect(Buffer.isBuffer(sqlite.params[1])).toBe(true);
        const shape = /^select [`"]\w+[`"]\.[`"]id[`"].* from [`"]products[`"] as .* where .*lower\("name"\) like lower\((\?|\$3)\).* order by .*price[`"] asc$/iu;
        expect(sqlite.sql).toMatch(shape);
        expect(postgres.params.slice(0, 2)).toEqual([true, '0190a5c8-0000-7000-8000-000000000001']);
        expect(postgres.sql).toMatch(shape);
        expect(sqlite.sql).toMatch(/`active` = \?/u);
        expect(postgres.sql).toMatch(/"active" = \$1/u);
        expect(query.toSql(engine.name)).toEqual(query.toSql());
        expect(() => db.query(Post).search('mug').toSql(engine.name === 'sqlite' ? 'postgres' : 'sqlite')).toThrow(expect.objectContaining({ code: 'bad_value' }));
        expect(() => db.query(Product).where({ nope: 1 } as never).toSql('postgres')).toThrow(expect.objectContaining({ code: 'unknown_column' }));
        expect(await db.query(Product).count()).toBe(0);
      });
    });

    describe('writing', () => {
      it('update sets updated_at, counts rows and refuses to set id', async () => {
        const a = await product({ price: 100 });
        await product({ price: 200 });
        clock.advance(5000);
        expect(await db.query(Product).where('price', '>', 150).update({ status: 'live' })).toBe(1);
        const rows = await db.query(Product).orderBy('id').get();
        expect(rows.map((row) => row.status)).toEqual(['draft', 'live']);
        expect(rows[1]?.updated_at).toEqual(new Date(Date.parse(START) + 5000));
        expect(rows[0]?.updated_at).toEqual(new Date(START));
        await expect(db.query(Product).where('id', a.id).update({ id: 5 })).rejects.toMatchObject({ code: 'update_sets_key' });
      });

      it('an empty whereAny in a bulk update touches no row (MikroORM drops an empty $or)', async () => {
        await product();
        await product();
        expect(await db.query(Product).whereAny(() => undefined).update({ name: 'all gone' })).toBe(0);
        expect(await db.query(Product).whereIn('id', []).delete()).toBe(0);
        expect(await db.query(Product).where('name', 'all gone').count()).toBe(0);
        expect(await db.query(Product).count()).toBe(2);
      });

      it('increment adds in one statement', async () => {
        const made = await product({ price: 100 });
        await db.query(Product).where('id', made.id).increment('price', 5);
        await db.query(Product).where('id', made.id).decrement('price', 2);
        expect((await db.query(Product).find(made.id))?.price).toBe(103);
        await expect(db.query(Product).increment('name')).rejects.toMatchObject({ code: 'bad_value' });
      });

      it('insertMany writes every row in few statements', async () => {
        const rows = Array.from({ length: 2500 }, (_, index) => ({ name: `bulk ${index}`, sku: `bulk-${index}`, price: index }));
        expect(await db.query(Product).insertMany(rows)).toBe(2500);
        expect(await db.query(Product).count()).toBe(2500);
        expect(await db.query(Product).sum('price')).toBe((2499 * 2500) / 2);
      });

      it('upsert inserts or updates on a unique index, and needs one', async () => {
        await product({ sku: 'A', price: 1 });
        await db.query(Product).upsert(
          [
            { name: 'A again', sku: 'A', price: 10 },
            { name: 'B', sku: 'B', price: 20 },
          ],
          ['sku'],
          ['price'],
        );
        expect(await db.query(Product).orderBy('sku').selectAs(['sku', 'name', 'price'])).toEqual([
          { sku: 'A', name: expect.stringMatching(/^Product/u) as unknown, price: 10 },
          { sku: 'B', name: 'B', price: 20 },
        ]);
        await expect(db.query(Product).upsert([{ name: 'x', sku: 'C', price: 1 }], ['name'], ['price'])).rejects.toMatchObject({ code: 'no_unique_columns' });
      });

      it('firstOrCreate, firstOrNew, updateOrCreate', async () => {
        const made = await db.query(Product).firstOrCreate({ sku: 'X' }, { name: 'X', price: 5 });
        expect((await db.query(Product).firstOrCreate({ sku: 'X' }, { name: 'other', price: 6 })).id).toBe(made.id);
        const fresh = await db.query(Product).firstOrNew({ sku: 'Y' }, { name: 'Y', price: 1 });
        expect(fresh.id).toBe(0);
        expect(await db.query(Product).count()).toBe(1);
        const saved = await db.save(Product, fresh);
        expect(saved.id).toBeGreaterThan(0);
        await db.query(Product).updateOrCreate({ sku: 'X' }, { price: 50 });
        await db.query(Product).updateOrCreate({ sku: 'Z' }, { name: 'Z', price: 70 });
        expect(await db.query(Product).orderBy('sku').pluck('price')).toEqual([50, 1, 70]);
      });

      it('refresh reads the row again', async () => {
        const made = await product({ price: 1 });
        await db.query(Product).where('id', made.id).update({ price: 2 });
        expect((await db.refresh(Product, made))?.price).toBe(2);
      });
    });

    describe('soft deletes', () => {
      it('delete marks the row; reads, counts and aggregates leave it out; withTrashed, onlyTrashed and restore', async () => {
        const kept = await product({ price: 1 });
        const gone = await db.delete(Product, await product({ price: 2 }));
        expect(gone.deleted_at).toEqual(new Date(START));
        expect(await db.query(Product).pluck('id')).toEqual([kept.id]);
        expect(await db.query(Product).count()).toBe(1);
        expect(await db.query(Product).sum('price')).toBe(1);
        expect(await db.query(Product).withTrashed().count()).toBe(2);
        expect(await db.query(Product).onlyTrashed().pluck('id')).toEqual([gone.id]);
        expect(await db.query(Product).find(gone.id)).toBeNull();
        await db.restore(Product, gone);
        expect(await db.query(Product).count()).toBe(2);
        await db.query(Product).where('id', kept.id).delete();
        expect(await db.query(Product).withTrashed().count()).toBe(2);
        await db.query(Product).withTrashed().forceDelete();
        expect(await db.query(Product).withTrashed().count()).toBe(0);
      });
    });

    describe('hooks', () => {
      beforeEach(() => {
        hookCalls.length = 0;
      });

      it('run around create, save, saveOnly, delete and forceDelete; saving may change the row', async () => {
        const note = await db.query(Note).create({ title: 'Hello World' });
        expect(note.slug).toBe('hello-world');
        const saved = await db.save(Note, { ...note, title: 'Second Title' });
        expect((await db.query(Note).find(note.id))?.slug).toBe('second-title');
        await db.saveOnly(Note, { ...saved, title: 'Third' }, ['title']);
        await db.delete(Note, saved);
        await db.forceDelete(Note, saved);
        expect(hookCalls).toEqual([
          'saving:Hello World:true',
          'saved:Hello World:true',
          'saving:Second Title:false',
          'saved:Second Title:false',
          'saving:Third:false',
          'saved:Third:false',
          'deleting:Second Title',
          'deleted:Second Title',
          'deleting:Second Title',
          'deleted:Second Title',
        ]);
      });

      it('a throwing saving or deleting stops the write', async () => {
        await expect(db.query(Note).create({ title: 'refuse me' })).rejects.toThrow('refused by saving');
        expect(await db.query(Note).withTrashed().count()).toBe(0);
        const kept = await db.query(Note).create({ title: 'keep me' });
        await expect(db.delete(Note, kept)).rejects.toThrow('refused by deleting');
        await expect(db.save(Note, { ...kept, title: 'refuse change' })).rejects.toThrow('refused by saving');
        expect(await db.query(Note).pluck('title')).toEqual(['keep me']);
      });

      it('do not run for restore, bulk update or delete, insertMany or upsert', async () => {
        const note = await db.query(Note).create({ title: 'a' });
        await db.query(Note).where('id', note.id).delete();
        await db.restore(Note, note);
        await db.query(Note).update({ title: 'b' });
        await db.query(Note).insertMany([{ title: 'c' }, { title: 'd' }]);
        await db.query(Note).upsert([{ id: note.id, title: 'e' }], ['id'], ['title']);
        expect(hookCalls).toEqual(['saving:a:true', 'saved:a:true']);
      });

      it('saveChanges runs saving even with nothing changed, then skips the query and saved', async () => {
        const note = await db.query(Note).create({ title: 'same' });
        hookCalls.length = 0;
        clock.advance(1000);
        const unchanged = await db.saveChanges(Note, note, { title: 'same' });
        expect(hookCalls).toEqual(['saving:same:false']);
        expect((await db.query(Note).find(note.id))?.updated_at).toEqual(new Date(START));
        expect(unchanged.title).toBe('same');
        await db.saveChanges(Note, note, { title: 'Other One' });
        expect(hookCalls).toEqual(['saving:same:false', 'saving:Other One:false', 'saved:Other One:false']);
        expect(await db.query(Note).find(note.id)).toMatchObject({ title: 'Other One', slug: 'other-one', updated_at: new Date(Date.parse(START) + 1000) });
      });
    });

    describe('relations', () => {
      /** Counts the statements `work` sends. */
      const statements = async (work: () => Promise<unknown>): Promise<number> => {
        const connection = database().orm.em.getConnection();
        const spy = vi.spyOn(connection, 'execute');
        try {
          await work();
          return spy.mock.calls.length;
        } finally {
          spy.mockRestore();
        }
      };

      const library = async () => {
        const [fr, de] = [await db.create(Country, { name: 'France' }), await db.create(Country, { name: 'Germany' })];
        const authors = [
          await db.create(Author, { name: 'Hugo', country_id: fr.id }),
          await db.create(Author, { name: 'Zola', country_id: fr.id }),
          await db.create(Author, { name: 'Mann', country_id: de.id }),
          await db.create(Author, { name: 'Nobody', country_id: null }),
        ];
        const [hugo, zola, mann] = authors as [typeof authors[0], typeof authors[0], typeof authors[0]];
        await db.query(Book).insertMany([
          { title: 'Les Misérables', author_id: hugo.id, price: 30, published: true },
          { title: 'Notre-Dame', author_id: hugo.id, price: 20, published: true },
          { title: 'Draft', author_id: hugo.id, price: 5, published: false },
          { title: 'Germinal', author_id: zola.id, price: 25, published: true },
          { title: 'Anonymous', author_id: null, price: 1, published: true },
        ]);
        const gone = await db.query(Book).create({ title: 'Buddenbrooks', author_id: mann.id, price: 40, published: true });
        await db.delete(Book, gone);
        return { countries: [fr, de], authors, hugo, zola, mann };
      };

      beforeEach(async () => {
        for (const model of [Book, Author, Country]) await db.query(model).withTrashed().forceDelete();
      });

      it('belongsTo, hasMany, countMany and sumMany take one statement each for the whole list', async () => {
        const { authors, hugo, zola, mann } = await library();
        const books = await db.query(Book).orderBy('id').get();
        let owners = new Map<number, { name: string }>();
        expect(await statements(async () => (owners = await db.relations.belongsTo(books, Author, 'author_id')))).toBe(1);
        expect(books.map((book) => (book.author_id === null ? null : owners.get(book.author_id)?.name))).toEqual(['Hugo', 'Hugo', 'Hugo', 'Zola', null]);
        let shelves = new Map<number, Array<{ title: string }>>();
        expect(await statements(async () => (shelves = await db.relations.hasMany(authors, Book, 'author_id', (q) => q.where('published', true))))).toBe(1);
        expect(shelves.get(hugo.id)?.map((book) => book.title)).toEqual(['Les Misérables', 'Notre-Dame']);
        expect(shelves.get(mann.id)).toEqual([]);
        let counts = new Map<number, number>();
        expect(await statements(async () => (counts = await db.relations.countMany(authors, Book, 'author_id')))).toBe(1);
        expect([...counts.values()]).toEqual([3, 1, 0, 0]);
        let sums = new Map<number, number>();
        expect(await statements(async () => (sums = await db.relations.sumMany(authors, Book, 'author_id', 'price')))).toBe(1);
        expect(sums.get(hugo.id)).toBe(55);
        expect(sums.get(zola.id)).toBe(25);
        expect(await statements(() => db.relations.hasMany([], Book, 'author_id'))).toBe(0);
      });

      it('hasManyThrough takes two statements', async () => {
        const { countries } = await library();
        let books = new Map<number, Array<{ title: string }>>();
        expect(await statements(async () => (books = await db.relations.hasManyThrough(countries, Author, 'country_id', Book, 'author_id')))).toBe(2);
        expect(books.get(countries[0]!.id)?.map((book) => book.title)).toEqual(['Les Misérables', 'Notre-Dame', 'Draft', 'Germinal']);
        expect(books.get(countries[1]!.id)).toEqual([]);
      });

      it('whereHas and whereDoesntHave filter by related rows in one statement (NULL keys do not hide every row)', async () => {
        await library();
        const names = (query: ReturnType<typeof db.query<typeof Author>>): Promise<string[]> => query.orderBy('name').pluck('name');
        expect(await statements(() => names(db.query(Author).whereHas(db.query(Book), 'author_id')))).toBe(1);
        expect(await names(db.query(Author).whereHas(db.query(Book), 'author_id'))).toEqual(['Hugo', 'Zola']);
        expect(await names(db.query(Author).whereHas(db.query(Book).where('price', '>', 26), 'author_id'))).toEqual(['Hugo']);
        expect(await names(db.query(Author).whereDoesntHave(db.query(Book), 'author_id'))).toEqual(['Mann', 'Nobody']);
        expect(await db.query(Author).whereHas(db.query(Book).withTrashed(), 'author_id').count()).toBe(3);
      });
    });

    describe('default scopes', () => {
      it("apply to every read, count, page, bulk write and relation of a scoped db; withoutScope lifts them", async () => {
        await db.query(Doc).insertMany([
          { title: 'a1', team_id: 1 },
          { title: 'a2', team_id: 1 },
          { title: 'b1', team_id: 2 },
        ]);
        const team1 = db.withScope({ team: 1 });
        expect(await team1.query(Doc).orderBy('id').pluck('title')).toEqual(['a1', 'a2']);
        expect(await team1.query(Doc).count()).toBe(2);
        expect((await team1.query(Doc).paginate(10)).total).toBe(2);
        expect((await team1.query(Doc).cursorPaginate(10)).items).toHaveLength(2);
        const b1 = await db.query(Doc).where('title', 'b1').firstOrFail();
        expect(await team1.query(Doc).find(b1.id)).toBeNull();
        await expect(team1.query(Doc).findOrFail(b1.id)).rejects.toBeInstanceOf(RecordNotFound);
        expect(await team1.query(Doc).update({ title: 'renamed' })).toBe(2);
        expect(await team1.query(Doc).delete()).toBe(2);
        expect(await team1.query(Doc).withTrashed().count()).toBe(2);
        expect(await team1.query(Doc).withoutScope().count()).toBe(1);
        expect(await db.query(Doc).where('title', 'b1').count()).toBe(1);
        expect(await team1.transaction((tx) => tx.query(Doc).withTrashed().count())).toBe(2);
        const owners = [{ id: 1 }, { id: 2 }];
        expect([...(await team1.relations.countMany(owners, Doc, 'team_id', (q) => q.withTrashed())).values()]).toEqual([2, 0]);
      });

      it('a scope naming a column the model lacks is an InvalidQuery', async () => {
        const Broken = defineModel('docs', { title: column.string(), team_id: column.integer() }, { softDeletes: true, scope: () => ({ team: 1 }) });
        await expect(db.query(Broken).count()).rejects.toMatchObject({ code: 'unknown_column' });
      });
    });

    describe('full-text search', () => {
      const titles = (query: ReturnType<typeof db.query<typeof Post>>): Promise<string[]> => query.pluck('title');

      it('matches every word, prefixes and word forms, best first, ties newest first', async () => {
        await db.query(Post).create({ title: 'Garden tools', body: 'Running a small garden' });
        clock.advance(1000);
        await db.query(Post).create({ title: 'Kitchen', body: 'The garden runs into the kitchen' });
        clock.advance(1000);
        await db.query(Post).create({ title: 'Kitchen knives', body: 'Sharp and small' });
        clock.advance(1000);
        await db.query(Post).create({ title: 'Garden chairs', body: 'Running a small garden' });
        expect(await titles(db.query(Post).search('garden'))).toEqual(['Garden chairs', 'Garden tools', 'Kitchen']);
        expect(await titles(db.query(Post).search('gard run'))).toEqual(['Garden chairs', 'Garden tools', 'Kitchen']);
        expect(await titles(db.query(Post).search('kitchen small'))).toEqual(['Kitchen knives']);
        expect(await titles(db.query(Post).whereSearch('knife OR garden').orderBy('id'))).toEqual([]);
        expect(await titles(db.query(Post).whereSearch('running').orderBy('id'))).toEqual(['Garden tools', 'Kitchen', 'Garden chairs']);
        expect(await titles(db.query(Post).search('  '))).toEqual([]);
      });

      it('orderByRelevance ranks without filtering: rows that do not match come last', async () => {
        await db.query(Post).create({ title: 'Teapot', body: 'no match here' });
        clock.advance(1000);
        await db.query(Post).create({ title: 'Small lamp', body: 'a garden lamp' });
        clock.advance(1000);
        await db.query(Post).create({ title: 'Garden lamp', body: 'a garden lamp for the garden' });
        expect(await titles(db.query(Post).orderByRelevance('garden lamp').orderBy('id'))).toEqual(['Garden lamp', 'Small lamp', 'Teapot']);
        expect(await titles(db.query(Post).whereSearch('lamp').orderByRelevance('teapot').latest())).toEqual(['Garden lamp', 'Small lamp']);
        const ranked = await titles(db.query(Post).search('lamp'));
        const pages = [await db.query(Post).search('lamp').paginate(1, 1), await db.query(Post).search('lamp').paginate(1, 2)];
        expect(pages.map((page) => [page.total, ...page.items.map((post) => post.title)])).toEqual([[2, ranked[0]], [2, ranked[1]]]);
        expect(new Set(ranked)).toEqual(new Set(['Garden lamp', 'Small lamp']));
      });

      it.runIf(engine.name === 'sqlite')('a ranked search is at most three statements whose search-table reads are made once, not once per row', async () => {
        await db.query(Post).create({ title: 'Garden tools', body: 'Running a small garden' });
        const connection = database().orm.em.getConnection();
        const spy = vi.spyOn(connection, 'execute');
        try {
          // Two words: the rows holding both in the title and one in the body, then those holding a word in the title, then the full statement, each when the one before finds too few.
          expect(await titles(db.query(Post).search('garden tools').limit(10))).toEqual(['Garden tools']);
          expect(spy.mock.calls).toHaveLength(3);
          spy.mockClear();
          // When the first finds enough, it is the only statement.
          expect(await titles(db.query(Post).search('garden tools').limit(1))).toEqual(['Garden tools']);
          expect(spy.mock.calls).toHaveLength(1);
          spy.mockClear();
          expect(await titles(db.query(Post).search('garden').limit(10))).toEqual(['Garden tools']);
          expect(spy.mock.calls.length).toBeLessThanOrEqual(3);
          spy.mockClear();
          expect(await db.query(Post).whereSearch('garden').count()).toBe(1);
          expect(spy.mock.calls).toHaveLength(1);
          // FTS5 counts its own matches: no visit of each matching row through `id in (select rowid …)`.
          for (const [sql] of spy.mock.calls) expect(String(sql)).not.toMatch(/in \(select rowid/u);
        } finally {
          spy.mockRestore();
        }
        // A correlated subquery would ask the search table once per row (over 30 s a query at 100 000 rows).
        const { sql, params } = db.query(Post).search('garden tools').limit(10).toSql();
        const plan = await db.sql(`explain query plan ${sql}`, params).fetchAs<{ detail: string }>();
        expect(plan.filter((step) => /SUBQUERY/u.test(step.detail)).length).toBeGreaterThan(0);
        expect(plan.filter((step) => /CORRELATED/u.test(step.detail))).toEqual([]);
      });

      it.runIf(engine.name === 'postgres')('a count, an aggregate or a ranked read of a common word visits the matches the GIN index lists, not every row', async () => {
        // 60 000 rows of 34 words from 100 (by hash, as random text): `w42` is in ~29 % of them. Knowing that, the
        // planner scans the table evaluating `@@` on every row rather than visit the matches the index lists.
        await db.sql(`insert into posts (title, body, team_id, created_at, updated_at)
          select array_to_string(array(select 'w' || (abs(hashint8(n * 100 + k)) % 100) from generate_series(1, 4) k), ' '),
            array_to_string(array(select 'w' || (abs(hashint8(n * 100 + k)) % 100) from generate_series(5, 34) k), ' '), 1, now(), now()
          from generate_series(1, 60000) n`).fetchAs();
        await db.sql('analyze posts').fetchAs();
        const [{ matches } = { matches: 0 }] = await db.sql(`select count(*)::int as matches from posts where posts_search @@ to_tsquery('english', 'w42:*')`).fetchAs<{ matches: number }>();
        expect(matches).toBeGreaterThan(10_000);
        // The title index is looked for once per database; asked here so that the count below is the reads' alone.
        await db.firstColumnIndexed(Post);
        const connection = database().orm.em.getConnection();
        const spy = vi.spyOn(connection, 'execute');
        try {
          expect(await db.query(Post).whereSearch('w42').count()).toBe(matches);
          expect(await db.query(Post).whereSearch('w42').sum('team_id')).toBe(matches);
          expect(await db.query(Post).search('w42 w7').limit(10).get()).toHaveLength(10);
          const statements = spy.mock.calls.map(([sql, params]) => ({ sql: String(sql), params: (params ?? []) as unknown[] }));
          expect(statements).toHaveLength(3);
          for (const [at, { sql, params }] of statements.entries()) {
            const plan = (await db.sql(`explain ${sql}`, params).fetchAs<{ 'QUERY PLAN': string }>()).map((step) => step['QUERY PLAN']).join('\n');
            // The ranked read of two words: the rows holding both in the title, through the title's own GIN index.
            expect(plan, sql).toMatch(at === 2 ? /Bitmap Index Scan on "?posts_search_first_gin/u : /Bitmap Index Scan on "?posts_search_gin/u);
            expect(plan, sql).not.toMatch(/Seq Scan/u);
          }
        } finally {
          spy.mockRestore();
        }
        // The page in another order still lets the planner walk that order's index when the word is common.
        const { sql, params } = db.query(Post).whereSearch('w42').orderBy('id', 'desc').limit(20).toSql();
        const plan = (await db.sql(`explain ${sql.replace(/\$\d+/gu, '?')}`, params).fetchAs<{ 'QUERY PLAN': string }>()).map((step) => step['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Index Scan Backward using posts_pkey/u);
      });

      it.runIf(engine.name === 'postgres')('a two-word ranked read reads the title tier only where the title index exists (search migrations made before it lack it)', async () => {
        clock.advance(1000);
        await db.query(Post).insertMany(Array.from({ length: 40 }, (_, n) => ({ title: n % 2 === 0 ? 'garden lamp' : 'garden', body: n % 3 === 0 ? 'lamp river' : 'river' })));
        const reads = async (on: Db): Promise<{ ids: number[]; titleTier: boolean }> => {
          const connection = database().orm.em.getConnection();
          const spy = vi.spyOn(connection, 'execute');
          try {
            const ids = await on.query(Post).search('garden lamp').limit(5).pluck('id');
            return { ids, titleTier: spy.mock.calls.some(([sql]) => String(sql).includes('to_tsvector(')) };
          } finally {
            spy.mockRestore();
          }
        };
        const indexed = await reads(db);
        expect(indexed.titleTier).toBe(true);
        expect(indexed.ids).toEqual((await db.query(Post).search('garden lamp').pluck('id')).slice(0, 5));
        await db.sql('drop index posts_search_first_gin').fetchAs();
        try {
          const unindexed = await reads(Db.connect(database(), { box: box(7), clock }));
          expect(unindexed).toEqual({ ids: indexed.ids, titleTier: false });
          // An index of that name under another language (the model's language changed since its migration) is not the title's.
          await db.sql(`create index posts_search_first_gin on posts using gin (to_tsvector('simple', coalesce("title", '')))`).fetchAs();
          const otherLanguage = await reads(Db.connect(database(), { box: box(7), clock }));
          expect(otherLanguage).toEqual({ ids: indexed.ids, titleTier: false });
          await db.sql('drop index posts_search_first_gin').fetchAs();
        } finally {
          await db.sql(`create index posts_search_first_gin on posts using gin (to_tsvector('english', coalesce("title", '')))`).fetchAs();
        }
      });

      it('a ranked page is exactly the full ranking sliced, whichever statement finds it, and counts agree', async () => {
        const vocabulary = ['garden', 'gardens', 'kitchen', 'table', 'lamp', 'river', 'mug', 'chair'];
        let seed = 7;
        const next = (): number => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return seed / 2147483648;
        };
        const text = (count: number): string => Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
        for (let batch = 0; batch < 6; batch++) {
          clock.advance(1000);
          // One statement per batch: its rows share created_at, so ties go to id.
          await db.query(Post).insertMany(Array.from({ length: 25 }, (_, n) => ({ title: text(1 + (n % 3)), body: text(3 + (n % 5)), team_id: n % 3 })));
        }
        for (const q of ['garden', 'gard', 'kitchen', 'garden lamp', 'mug chair', 'table river lamp', 'riv m', 'zebra']) {
          for (const [limit, offset] of [[1, 0], [5, 0], [10, 0], [5, 5], [3, 20]] as const) {
            const full = await db.query(Post).search(q).pluck('id');
            expect(await db.query(Post).search(q).limit(limit).offset(offset).pluck('id'), `${q} ${limit}+${offset}`).toEqual(full.slice(offset, offset + limit));
            const team = await db.query(Post).search(q).where('team_id', 1).pluck('id');
            expect((await db.query(Post).search(q).where('team_id', 1).limit(limit).offset(offset).get()).map((post) => post.id), `${q} team`).toEqual(team.slice(offset, offset + limit));
          }
          // The count of a bare search against the same count through the table (an always-true condition).
          expect(await db.query(Post).whereSearch(q).count(), q).toBe(await db.query(Post).whereSearch(q).where('id', '>', 0).count());
        }
        expect(await db.query(Post).whereSearch('garden').count()).toBeGreaterThan(0);
      });

      it('the full ranking is the relevance counted by hand: 4 for a word in the title, 2 in the body, ties newest first', async () => {
        // Words whose stems are prefixes of themselves on both engines, so "holds the word" is a plain prefix test here.
        const vocabulary = ['garden', 'gardens', 'kitchen', 'lamp', 'river', 'mug', 'chair'];
        let seed = 11;
        const next = (): number => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return seed / 2147483648;
        };
        const text = (count: number): string => Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
        for (let batch = 0; batch < 4; batch++) {
          clock.advance(1000);
          await db.query(Post).insertMany(Array.from({ length: 30 }, (_, n) => ({ title: text(1 + (n % 3)), body: text(2 + (n % 4)) })));
        }
        const rows = await db.query(Post).orderBy('id').get();
        const holds = (value: string, word: string): boolean => value.split(' ').some((token) => token.startsWith(word));
        for (const q of ['garden', 'gard', 'garden lamp', 'mug chair', 'riv kitchen', 'lamp river mug']) {
          const words = q.split(' ');
          const score = (post: (typeof rows)[number]): number => words.reduce((sum, word) => sum + (holds(post.title, word) ? 4 : 0) + (holds(post.body, word) ? 2 : 0), 0);
          const expected = rows
            .filter((post) => words.every((word) => holds(post.title, word) || holds(post.body, word)))
            .sort((a, b) => score(b) - score(a) || (b.created_at?.getTime() ?? 0) - (a.created_at?.getTime() ?? 0) || b.id - a.id)
            .map((post) => post.id);
          expect(expected.length, q).toBeGreaterThan(0);
          expect(await db.query(Post).search(q).pluck('id'), q).toEqual(expected);
          expect(await db.query(Post).search(q).limit(3).pluck('id'), `${q} top 3`).toEqual(expected.slice(0, 3));
        }
      });

      it('a newest-first page of a search is the same rows whichever plan its count picks', async () => {
        for (let batch = 0; batch < 4; batch++) {
          clock.advance(1000);
          // One statement per batch: its rows share created_at, so ties go to id. `garden` is in every second row, `zebra` in 3 of 120.
          await db.query(Post).insertMany(Array.from({ length: 30 }, (_, n) => ({ title: n % 2 === 0 ? 'garden chair' : 'lamp', body: batch < 3 && n === 7 ? 'zebra river' : 'river', team_id: n % 3 })));
        }
        const ids = (rows: readonly RowOf<typeof Post>[]): number[] => rows.map((post) => post.id);
        for (const q of ['garden', 'zebra', 'riv', 'gard river', 'nothing']) {
          const newest = await db.query(Post).whereSearch(q).latest().pluck('id');
          const byKey = await db.query(Post).whereSearch(q).orderByDesc('id').pluck('id');
          const team = await db.query(Post).whereSearch(q).where('team_id', 1).latest().pluck('id');
          for (const [perPage, page] of [[20, 1], [7, 3], [5, 6], [50, 2]] as const) {
            const at: number = perPage * (page - 1);
            const latestPage = await db.query(Post).whereSearch(q).latest().paginate(perPage, page);
            expect([latestPage.total, ...ids(latestPage.items)], `${q} latest ${perPage}/${page}`).toEqual([newest.length, ...newest.slice(at, at + perPage)]);
            expect(ids((await db.query(Post).whereSearch(q).orderByDesc('id').paginate(perPage, page)).items), `${q} by id`).toEqual(byKey.slice(at, at + perPage));
            expect(ids((await db.query(Post).whereSearch(q).where('team_id', 1).latest().paginate(perPage, page)).items), `${q} team`).toEqual(team.slice(at, at + perPage));
            expect(ids((await db.query(Post).whereSearch(q).latest().simplePaginate(perPage, page)).items), `${q} simple`).toEqual(newest.slice(at, at + perPage));
            expect(await db.query(Post).whereSearch(q).orderByDesc('id').offset(at).limit(perPage).pluck('id'), `${q} pluck`).toEqual(byKey.slice(at, at + perPage));
          }
        }
        if (engine.name !== 'sqlite') return;
        // Which plan: a common word walks the order's index (`+"id"` stops SQLite driving by the word's row list), a rare one does not.
        const walks = async (on: Db, query: (db: Db) => Promise<unknown>): Promise<boolean> => {
          const connection = database().orm.em.getConnection();
          const spy = vi.spyOn(connection, 'execute');
          try {
            await query(on);
            return spy.mock.calls.some(([sql]) => String(sql).includes('+"id" in (select rowid'));
          } finally {
            spy.mockRestore();
          }
        };
        expect(await walks(db, (on) => on.query(Post).whereSearch('garden').latest().paginate(20))).toBe(true);
        expect(await walks(db, (on) => on.query(Post).whereSearch('zebra').latest().paginate(20))).toBe(false);
        // Reads with a limit and no count have FTS5 count the matches up to the threshold, when the search is the only condition.
        expect(await walks(db, (on) => on.query(Post).whereSearch('garden').latest().limit(20).get())).toBe(true);
        expect(await walks(db, (on) => on.query(Post).whereSearch('zebra').latest().limit(20).get())).toBe(false);
        expect(await walks(db, (on) => on.query(Post).whereSearch('garden').where('team_id', 1).latest().limit(20).get())).toBe(false);
        expect(await walks(db, (on) => on.query(Post).whereSearch('garden').latest().get())).toBe(false);
        // Without an index on created_at the walk would be a table scan: only the key order, which the table is, still walks.
        await db.sql('drop index posts_search_latest').fetchAs();
        try {
          const unindexed = Db.connect(database(), { box: box(7), clock });
          expect(await walks(unindexed, (on) => on.query(Post).whereSearch('garden').latest().paginate(20))).toBe(false);
          expect(await walks(unindexed, (on) => on.query(Post).whereSearch('garden').orderByDesc('id').paginate(20))).toBe(true);
        } finally {
          await db.sql('create index posts_search_latest on posts (created_at, id)').fetchAs();
        }
      });

      it('ranks by at most four words of two letters or more, so long visitor text costs a bounded query', async () => {
        await db.query(Post).create({ title: 'Garden tools', body: 'Running a small garden' });
        const reads = (text: string): number => {
          const { sql } = db.query(Post).orderByRelevance(text).toSql();
          return sql.split(engine.name === 'sqlite' ? ' match ' : ' @@ ').length - 1;
        };
        const fourWords = reads('garden tools running small');
        expect(reads('g k t c w d r m f s v b p a o l')).toBeLessThanOrEqual(reads('g'));
        expect(reads('garden tools running small lamp chair table mug knife fork')).toBe(fourWords);
        expect(reads('garden')).toBeLessThan(fourWords);
        // Filtering still asks for every word.
        expect(await titles(db.query(Post).search('garden tools running small lamp'))).toEqual([]);
        expect(await titles(db.query(Post).search('g r sm garden'))).toEqual(['Garden tools']);
      });

      it('chains with conditions, latest() and pages', async () => {
        for (let n = 0; n < 30; n++) {
          clock.advance(1000);
          await db.query(Post).create({ title: `Mug ${n}`, body: 'ceramic', team_id: n % 2 });
        }
        const page = await db.query(Post).whereSearch('mug ceramic').where('team_id', 1).latest().paginate(10, 2);
        expect(page.total).toBe(15);
        expect(page.items.map((post) => post.title)).toEqual(['Mug 9', 'Mug 7', 'Mug 5', 'Mug 3', 'Mug 1']);
      });

      it('the database keeps the index current on bulk updates, deletes and raw SQL', async () => {
        const post = await db.query(Post).create({ title: 'Old words', body: 'nothing' });
        await db.query(Post).where('id', post.id).update({ title: 'Fresh words' });
        expect(await titles(db.query(Post).search('fresh'))).toEqual(['Fresh words']);
        expect(await titles(db.query(Post).search('old'))).toEqual([]);
        await db.sql('update posts set body = ? where id = ?', ['zebra crossing', post.id]).fetchAs();
        expect(await titles(db.query(Post).search('zebra'))).toEqual(['Fresh words']);
        await db.query(Post).where('id', post.id).delete();
        expect(await titles(db.query(Post).search('zebra'))).toEqual([]);
      });

      it("'simple' turns stemming off", async () => {
        await db.query(Plain).create({ title: 'running shoes' });
        expect(await db.query(Plain).search('running').pluck('title')).toEqual(['running shoes']);
        expect(await db.query(Plain).search('runs').pluck('title')).toEqual([]);
        expect(() => db.query(Product).search('x')).toThrow(expect.objectContaining({ code: 'not_searchable' }));
      });

      it('never fails on hostile input', async () => {
        await db.query(Post).create({ title: 'Quote "mugs" -cups *star*', body: 'NEAR AND OR NOT' });
        const hostile = fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom('"', "'", '-', '*', '\0', 'a"b', 'NEAR(a b)', 'title:x', '(((', ')', '&|!', ':*', '^', '+-*', 'AND OR NOT'),
          fc.constant('😀'.repeat(2500)),
        );
        await fc.assert(
          fc.asyncProperty(hostile, async (text) => {
            await db.query(Post).search(text).get();
            await db.query(Post).search(text).limit(5).get();
            await db.query(Post).whereSearch(text).count();
          }),
          { numRuns: 60 },
        );
        expect(await titles(db.query(Post).search('"mugs" -cups'))).toEqual(['Quote "mugs" -cups *star*']);
      });
    });

    describe('pages', () => {
      it('paginate counts under the same conditions, and never gives more than 1000 rows', async () => {
        await db.query(Product).insertMany(Array.from({ length: 1010 }, (_, index) => ({ name: `p${index}`, sku: `p${index}`, price: index })));
        await db.query(Product).where('price', '<', 5).delete();
        const page = await db.query(Product).where('price', '<', 30).orderBy('price').paginate(10, 3);
        expect(page).toMatchObject({ total: 25, perPage: 10, currentPage: 3, lastPage: 3, from: 21, to: 25, hasMorePages: false });
        expect(page.items.map((row) => row.price)).toEqual([25, 26, 27, 28, 29]);
        const huge = await db.query(Product).paginate(5000, 1);
        expect(huge.items).toHaveLength(1000);
        expect(huge).toMatchObject({ perPage: 1000, total: 1005, lastPage: 2, hasMorePages: true });
        expect((await db.query(Product).simplePaginate(5000)).items).toHaveLength(1000);
        const simple = await db.query(Product).orderBy('price').simplePaginate(500, 3);
        expect(simple).toMatchObject({ currentPage: 3, hasMorePages: false });
        expect(simple.items).toHaveLength(5);
        expect((await db.query(Product).cursorPaginate(5000)).items).toHaveLength(1000);
      });

      it('cursorPaginate walks every row once in order, with NULLs and ties', async () => {
        const weights = [2, null, 1, 2, null, 3, 1, 2, null, 0.5, 3, 2];
        const made = [];
        for (const weight of weights) made.push(await product({ weight }));
        const walk = async (direction: 'asc' | 'desc', size: number): Promise<number[]> => {
          const seen: number[] = [];
          let cursor: string | null = null;
          for (let pages = 0; pages < 20; pages++) {
            const page: Awaited<ReturnType<ReturnType<typeof db.query<typeof Product>>['cursorPaginate']>> = await db.query(Product).orderBy('weight', direction).cursorPaginate(size, cursor);
            seen.push(...page.items.map((row) => row.id));
            cursor = page.nextCursor;
            if (cursor === null) break;
          }
          return seen;
        };
        const byWeight = (direction: 'asc' | 'desc') => (a: Product, b: Product): number => {
          if (a.weight === b.weight) return a.id - b.id;
          if (a.weight === null) return direction === 'asc' ? 1 : -1;
          if (b.weight === null) return direction === 'asc' ? -1 : 1;
          return direction === 'asc' ? a.weight - b.weight : b.weight - a.weight;
        };
        // Pages of 2 split the ties of weight 2 and the NULLs across pages.
        for (const size of [5, 2]) {
          expect(await walk('asc', size)).toEqual([...made].sort(byWeight('asc')).map((row) => row.id));
          expect(await walk('desc', size)).toEqual([...made].sort(byWeight('desc')).map((row) => row.id));
        }
        const first = await db.query(Product).orderBy('weight').cursorPaginate(5);
        // Well-formed cursors whose values do not fit the columns (review: an edited cursor was an
        // InvalidQuery, a 500) start from the beginning as well.
        const forged = [['x', 1], [1.5, 'y'], [{ $ne: 1 }, 1], [1.5, null], [[], 1]].map((values) => Buffer.from(JSON.stringify(values)).toString('base64url'));
        for (const hostile of ['not a cursor', 'W10', '%%%', '', ...forged]) {
          expect((await db.query(Product).orderBy('weight').cursorPaginate(5, hostile)).items).toEqual(first.items);
        }
      });

      // MikroORM 6 sends values inlined, from which SQLite finds the range itself; with the values
      // bound (as the statement is explained here, and as a later MikroORM sends them) only the
      // first key's bound keeps SQLite from scanning the index up to the cursor.
      it.runIf(engine.name === 'sqlite')('a cursor page of latest() seeks the index to the cursor, values bound or not', async () => {
        await database().raw.session((sql) => sql.exec('CREATE INDEX IF NOT EXISTS products_latest ON products (created_at, id)'));
        for (let n = 0; n < 6; n++) {
          clock.advance(n % 2 === 0 ? 1000 : 0);
          await product();
        }
        const first = await db.query(Product).latest().cursorPaginate(2);
        const connection = database().orm.em.getConnection();
        const spy = vi.spyOn(connection, 'execute');
        let next;
        let sent;
        try {
          next = await db.query(Product).latest().cursorPaginate(2, first.nextCursor);
          sent = spy.mock.calls[0] ?? [];
        } finally {
          spy.mockRestore();
        }
        const [sql, params] = sent;
        const plan = await database().raw.session((raw) => raw.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${String(sql)}`, params as Array<string | number>));
        expect(plan.map((step) => step.detail).join(' | ')).toMatch(/^SEARCH .* USING INDEX products_latest \(created_at<\?\)$/u);
        const all = await db.query(Product).latest().pluck('id');
        expect([...first.items, ...next.items].map((row) => row.id)).toEqual(all.slice(0, 4));
      });

      it('findOrFail and firstOrFail throw RecordNotFound', async () => {
        const made = await product();
        expect((await db.query(Product).findOrFail(made.id)).id).toBe(made.id);
        await expect(db.query(Product).findOrFail(made.id + 1)).rejects.toBeInstanceOf(RecordNotFound);
        await expect(db.query(Product).where('name', 'nobody').firstOrFail()).rejects.toBeInstanceOf(RecordNotFound);
      });
    });

    describe('transactions', () => {
      it('commits on success and rolls back on error', async () => {
        await db.transaction(async (tx) => {
          await tx.query(Product).create({ name: 'kept', sku: 'k', price: 1 });
        });
        await expect(
          db.transaction(async (tx) => {
            await tx.query(Product).create({ name: 'lost', sku: 'l', price: 1 });
            throw new Error('stop');
          }),
        ).rejects.toThrow('stop');
        expect(await db.query(Product).pluck('name')).toEqual(['kept']);
      });

      it('a transaction, nested ones too, turns on no promise hooks (MikroORM\'s em.transactional would, on Node 20, for the rest of the process)', async () => {
        await db.transaction(async (tx) => {
          await tx.query(Product).create({ name: 'outer', sku: 'o', price: 1 });
          await expect(
            tx.transaction(async (inner) => {
              await inner.query(Product).create({ name: 'inner', sku: 'i', price: 1 });
              throw new Error('undo the savepoint only');
            }),
          ).rejects.toThrow('undo');
        });
        expect(await db.query(Product).pluck('name')).toEqual(['outer']);
        expect(await Promise.resolve().then(() => executionAsyncId())).toBe(0);
      });

      it('transactionRetrying retries busy and conflict errors, and no others', async () => {
        let attempts = 0;
        const result = await db.transactionRetrying(3, async (tx) => {
          attempts++;
          await tx.query(Product).create({ name: `try ${attempts}`, sku: `t${attempts}`, price: 1 });
          if (attempts < 3) throw Object.assign(new Error('conflict'), { code: engine.name === 'sqlite' ? 'SQLITE_BUSY' : '40001' });
          return 'done';
        });
        expect(result).toBe('done');
        expect(await db.query(Product).pluck('name')).toEqual(['try 3']);
        attempts = 0;
        await expect(
          db.transactionRetrying(3, () => {
            attempts++;
            return Promise.reject(new Error('plain'));
          }),
        ).rejects.toThrow('plain');
        expect(attempts).toBe(1);
      });

      it.runIf(engine.name === 'sqlite')('a transaction waits for another process that holds the write lock, then sees its write (SQLite)', async () => {
        const made = await product({ price: 100 });
        // Another process takes the write lock, changes the row, and commits 400 ms later.
        const child = spawn(process.execPath, ['-e', HOLD_WRITE_LOCK, engine.url().slice('sqlite:'.length), String(made.id)], { stdio: ['ignore', 'pipe', 'inherit'] });
        await new Promise<void>((resolve, reject) => {
          child.stdout.once('data', () => resolve());
          child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
        });
        // With a deferred BEGIN this read would see the old price, and the write would then
        // fail (busy snapshot) or lose the other process's update.
        await db.transaction(async (tx) => {
          const row = await tx.query(Product).find(made.id);
          await tx.query(Product).where('id', made.id).update({ price: (row?.price ?? 0) + 10 });
        });
        await new Promise((resolve) => child.once('exit', resolve));
        expect((await db.query(Product).find(made.id))?.price).toBe(111);
      });

      it('lockForUpdate reads rows inside a transaction', async () => {
        const made = await product({ price: 1 });
        await db.transaction(async (tx) => {
          const [row] = await tx.query(Product).where('id', made.id).lockForUpdate().get();
          await tx.query(Product).where('id', made.id).update({ price: (row?.price ?? 0) + 1 });
          const locked = tx.query(Product).lockForUpdate().toSql().sql;
          const shared = tx.query(Product).sharedLock().toSql().sql;
          // SQLite has no row locks; its transactions hold the database's one write lock instead.
          expect(locked).toMatch(engine.name === 'postgres' ? /for update$/iu : /products/u);
          expect(shared).toMatch(engine.name === 'postgres' ? /for share$/iu : /products/u);
          expect(await tx.query(Product).lockForUpdate().count()).toBe(1);
        });
        expect((await db.query(Product).find(made.id))?.price).toBe(2);
      });
    });
  });
}
