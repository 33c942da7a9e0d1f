import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { column, key } from '../../domain/data/columns.js';
import { factory } from '../../domain/data/factory.js';
import { defineModel } from '../../domain/data/model.js';
import { createTableSql } from '../../domain/data/table-sql.js';
import { deriveAppKeys } from '../../domain/security/app-keys.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';

/** Every `saving` call, as `name:creating`; a name starting with `refuse` makes it throw. */
const saving: string[] = [];
const Product = defineModel(
  'factory_products',
  { id: key.integer(), name: column.string(), price: column.money(), status: column.enum(['draft', 'live']).default('draft'), slug: column.string().nullable() },
  {
    hooks: {
      saving(row, creating) {
        saving.push(`${String(row['name'])}:${creating}`);
        if (String(row['name']).startsWith('refuse')) throw new Error('refused by saving');
        row['slug'] = String(row['name']).toLowerCase().replace(/\s+/gu, '-');
      },
    },
  },
);
const Tag = defineModel('factory_tags', { id: key.ulid(), label: column.string() }, { timestamps: false });

const newFactory = () =>
  factory(Product, (seq) => ({ name: `Product ${seq}`, price: 1000 }), {
    states: { expensive: { price: 90_000 }, live: (seq) => ({ status: 'live', name: `Live ${seq}` }) },
  });

describe('factory: make (nothing saved)', () => {
  it('makes one row from the definition, numbered by the sequence', () => {
    const products = newFactory();
    expect(products.make()).toEqual({ name: 'Product 1', price: 1000 });
    expect(products.make()).toEqual({ name: 'Product 2', price: 1000 });
  });

  it('makes n rows with count(n), states and overrides applied in that order', () => {
    const rows = newFactory().count(3).state('expensive').make({ price: 5 });
    expect(rows).toEqual([1, 2, 3].map((seq) => ({ name: `Product ${seq}`, price: 5 })));
    expect(newFactory().count(2).state('expensive').make().map((row) => row.price)).toEqual([90_000, 90_000]);
    expect(newFactory().count(2).state('live').make((seq) => ({ price: seq * 10 }))).toEqual([
      { name: 'Live 1', price: 10, status: 'live' },
      { name: 'Live 2', price: 20, status: 'live' },
    ]);
    expect(newFactory().count(0).make()).toEqual([]);
  });

  it('lets later states win and keeps the factory it came from unchanged', () => {
    const products = newFactory();
    const pricey = products.state('expensive').state({ price: 1 });
    expect(pricey.make().price).toBe(1);
    expect(products.make().price).toBe(1000);
  });

  it('refuses an unknown state and a count it cannot make, naming them', () => {
    expect(() => newFactory().state('cheap' as never)).toThrow(/no state 'cheap' \(it has expensive, live\)/u);
    for (const n of [-1, 1.5, Number.NaN, 1_000_001]) expect(() => newFactory().count(n)).toThrow(RangeError);
  });
});

function box(): AesGcmSecretBox {
  return new AesGcmSecretBox(deriveAppKeys(Buffer.alloc(32, 7)).modelEncryption, new CryptoRandomSource());
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`factory: create on ${engine.name}`, () => {
    const database = useMigratedDatabase(engine);
    const clock = new FixedClock('2026-11-24T10:00:00.000Z');
    let db: Db;

    beforeAll(async () => {
      await database().raw.session(async (sql) => {
        for (const model of [Product, Tag]) await sql.exec(`DROP TABLE IF EXISTS "${model.table}"; ${createTableSql(model, engine.name)}`);
        await sql.exec('CREATE UNIQUE INDEX factory_products_name ON factory_products (name)');
      });
      db = await Db.open(database(), { models: [Product, Tag], box: box(), clock });
    });

    beforeEach(async () => {
      saving.length = 0;
      await database().raw.session(async (sql) => {
        for (const model of [Product, Tag]) await sql.exec(`DELETE FROM "${model.table}"`);
      });
    });

    it('saves 50 rows through the data layer, hooks run as create runs them', async () => {
      const rows = await newFactory().count(50).create(db);
      expect(rows).toHaveLength(50);
      expect(await db.query(Product).count()).toBe(50);
      expect(saving.slice(0, 2)).toEqual(['Product 1:true', 'Product 2:true']);
      const first = await db.query(Product).where('name', 'Product 1').firstOrFail();
      expect(first).toMatchObject({ price: 1000, status: 'draft', slug: 'product-1', created_at: new Date('2026-11-24T10:00:00.000Z') });
      expect(rows[0]).toEqual(first);
    });

    it('saves one row with states and overrides, and makes keys of other kinds', async () => {
      const row = await newFactory().state('expensive').create(db, { name: 'Gold mug' });
      expect(await db.query(Product).find(row.id)).toMatchObject({ name: 'Gold mug', price: 90_000, slug: 'gold-mug' });
      const tags = await factory(Tag, (seq) => ({ label: `tag ${seq}` })).count(3).create(db);
      expect(tags.map((tag) => tag.id)).toEqual(expect.arrayContaining([expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/u)]));
      expect((await db.query(Tag).orderBy('label').pluck('label'))).toEqual(['tag 1', 'tag 2', 'tag 3']);
    });

    it('saves none of the rows when one fails (a hook throws, a unique key clashes)', async () => {
      await expect(newFactory().count(3).create(db, (seq) => (seq % 3 === 0 ? { name: 'refuse me' } : {}))).rejects.toThrow('refused by saving');
      expect(await db.query(Product).count()).toBe(0);
      await expect(newFactory().count(2).create(db, { name: 'Same' })).rejects.toThrow();
      expect(await db.query(Product).count()).toBe(0);
    });

    it('saves inside a transaction the test opened, and rolls back with it', async () => {
      await expect(
        db.transaction(async (tx) => {
          await newFactory().count(2).create(tx);
          expect(await tx.query(Product).count()).toBe(2);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await db.query(Product).count()).toBe(0);
    });
  });
}
