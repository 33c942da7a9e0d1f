import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, TOKENS, json, model } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-found-');

interface ProductRow {
  id: number;
  name: string;
  team_id: number;
}

// The team comes from a header here; a real app's scope reads the signed-in user.
const Product = model<ProductRow>('products', { softDeletes: true, scope: (ctx) => ({ team_id: Number(ctx.headers['x-team'] ?? '1') }) });
const Post = model('posts', { columns: ['slug'] });
const ApiKey = model('api_keys', { keyKind: 'ulid' });
const Thing = model('things', { keyKind: 'uuid' });
// No such table: a request that reached the database would be a 500.
const Ghost = model('ghosts');

const ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const UUID = '0b9f7c2e-4a51-4b8e-9d3c-2f6a1e8b7c90';

describe('ctx.found: route model binding', () => {
  let server: TestServer;
  let app: TestApp;

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'shop',
          routes: new Routes()
            .get('/products/{product}', async (ctx) => json(await ctx.found(Product)))
            .get('/teams/{team}/products/{product}', async (ctx) => json({ team: ctx.params.string('team'), name: (await ctx.found(Product)).name }))
            .get('/items/{id}', async (ctx) => json(await ctx.found(Product)))
            .get('/pick/{a}/{item}', async (ctx) => json(await ctx.found(Product, 'item')))
            .get('/two/{a}/{b}', async (ctx) => json(await ctx.found(Product)))
            .get('/blog/{slug}', async (ctx) => json(await ctx.found(Post)))
            .get('/posts/{post}', async (ctx) => json(await ctx.found(Post)))
            .get('/keys/{api_key}', async (ctx) => json(await ctx.found(ApiKey)))
            .get('/things/{thing}', async (ctx) => json(await ctx.found(Thing)))
            .get('/ghosts/{ghost}', async (ctx) => json(await ctx.found(Ghost))),
        }),
    });
    server = await app.serve();
    const { raw } = (await app.app.services()).get(TOKENS.database);
    await raw.session(async (sql) => {
      await sql.exec(`
        CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, team_id INTEGER NOT NULL, deleted_at INTEGER NULL);
        INSERT INTO products VALUES (1, 'Lamp', 1, NULL), (2, 'Chair', 2, NULL), (3, 'Gone', 1, 1767225600000);
        CREATE TABLE posts (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, title TEXT NOT NULL);
        INSERT INTO posts VALUES (1, 'hello-world', 'Hello'), (2, '42', 'The answer');
        CREATE TABLE api_keys (id TEXT PRIMARY KEY, label TEXT NOT NULL);
        INSERT INTO api_keys VALUES ('${ULID}', 'ci');
        CREATE TABLE things (id TEXT PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO things VALUES ('${UUID}', 'widget');
      `);
    });
  });
  afterAll(() => server.stop());

  const get = (path: string, headers: Record<string, string> = {}) => server.client().get(path, { headers });

  it('gives the handler the row the parameter named after the model names', async () => {
    const answer = await get('/products/1');
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ id: 1, name: 'Lamp', team_id: 1, deleted_at: null });
    expect((await get('/teams/red/products/1')).json()).toEqual({ team: 'red', name: 'Lamp' });
  });

  it('uses the route only parameter, or the one the handler names', async () => {
    expect((await get('/items/1')).json()).toMatchObject({ name: 'Lamp' });
    expect((await get('/pick/9/1')).json()).toMatchObject({ name: 'Lamp' });
  });

  it('answers 404 when no row has the key', async () => {
    expect((await get('/products/99')).status).toBe(404);
    const api = await get('/products/99', { accept: 'application/json' });
    expect(api.status).toBe(404);
    expect(api.json()).toEqual({ message: 'Not Found' });
  });

  it('answers 404 for a soft-deleted row', async () => {
    expect((await get('/products/3')).status).toBe(404);
  });

  it("answers 404 for another scope's row, and finds it under that scope", async () => {
    expect((await get('/products/2')).status).toBe(404);
    expect((await get('/products/2', { 'x-team': '2' })).json()).toMatchObject({ name: 'Chair' });
  });

  it('answers 404 without a query for a key that does not parse', async () => {
    for (const key of ['abc', '1.5', '1e3', '99999999999999999999']) expect((await get(`/products/${key}`)).status, key).toBe(404);
    expect((await get('/ghosts/abc')).status).toBe(404);
    // The same route with a key that parses asks the database, which has no such table.
    expect((await get('/ghosts/1')).status).toBe(500);
  });

  it('finds by a column when the parameter is named after it, and by the key otherwise', async () => {
    expect((await get('/blog/hello-world')).json()).toMatchObject({ id: 1, title: 'Hello' });
    expect((await get('/blog/42')).json()).toMatchObject({ id: 2, title: 'The answer' });
    expect((await get('/blog/nope')).status).toBe(404);
    expect((await get('/posts/1')).json()).toMatchObject({ slug: 'hello-world' });
    expect((await get('/posts/hello-world')).status).toBe(404);
  });

  it('reads ULID and UUID keys in either case, and 404s what is not one', async () => {
    expect((await get(`/keys/${ULID}`)).json()).toEqual({ id: ULID, label: 'ci' });
    expect((await get(`/keys/${ULID.toLowerCase()}`)).json()).toEqual({ id: ULID, label: 'ci' });
    expect((await get('/keys/1')).status).toBe(404);
    expect((await get(`/things/${UUID}`)).json()).toEqual({ id: UUID, name: 'widget' });
    expect((await get(`/things/${UUID.toUpperCase()}`)).json()).toEqual({ id: UUID, name: 'widget' });
    expect((await get('/things/0b9f7c2e')).status).toBe(404);
  });

  it('is a 500 naming the route when the model has no parameter to bind to', async () => {
    const answer = await get('/two/1/2');
    expect(answer.status).toBe(500);
    const logged = JSON.stringify(app.logs.filter((line) => line.level === 'error'));
    expect(logged).toContain("The route /two/{a}/{b} cannot find a 'products' row: the route has the parameters {a}, {b} and none is named {product}");
  });
});
