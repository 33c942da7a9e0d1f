import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, createTableSql } from '../../../composition/index.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { Product, buildShop } from './readme-shop.js';

const dir = useTempDir('fw-readme-models-');
const EXAMPLE = new URL('./readme-shop.ts', import.meta.url);
const README = new URL('../../../README.md', import.meta.url);

describe("README 'Models and queries'", () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    app = TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` }, build: buildShop });
    server = await app.serve();
    const services = await app.app.services();
    await services.get(TOKENS.database).raw.session((sql) => sql.exec(createTableSql(Product, 'sqlite')));
    const db = services.get(TOKENS.db);
    await db.verify([Product]);
    await db.query(Product).insertMany([
      { name: 'Blue mug', price: 1200, supplier_code: 'S-1' },
      { name: 'Red mug', price: 900 },
      { name: 'Gold mug', price: 90_000 },
    ]);
  });

  afterAll(async () => {
    await app.close();
  });

  it('shows the example exactly as the test runs it', () => {
    const example = readFileSync(EXAMPLE, 'utf8').replaceAll("'../../../composition/index.js'", "'fw'").trim();
    expect(readFileSync(README, 'utf8')).toContain(example);
  });

  it('searches, filters and orders through the data layer, over the socket', async () => {
    const response = await server.client().get('/products?q=MUG');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([
      { id: 2, name: 'Red mug', price: 900 },
      { id: 1, name: 'Blue mug', price: 1200 },
    ]);
  });

  it('writes in a transaction', async () => {
    const response = await server.client().post('/products/1/discount', { headers: { accept: 'application/json' } });
    expect(response.json()).toEqual({ changed: 1 });
    expect((await (await app.app.services()).get(TOKENS.db).query(Product).find(1))?.price).toBe(1100);
  });
});
