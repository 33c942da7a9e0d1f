import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, TOKENS, column, createDefaultApp, createTableSql, defineModel, json, key, model } from '../../../composition/index.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-found-models-');

const Gadget = defineModel('gadgets', { id: key.integer(), name: column.string(), team_id: column.integer(), active: column.boolean(), code: column.encrypted() }, { softDeletes: true });
const Badge = defineModel('badges', { id: key.ulid(), label: column.string() });
const Page = defineModel('pages', { id: key.string(), title: column.string() });

// The team comes from a header here; a real app's scope reads the signed-in user.
const BoundGadget = model(Gadget, { scope: (ctx) => ({ team_id: Number(ctx.headers['x-team'] ?? '1') }) });
// The same table with the data layer's own default scope, given its values per request.
const TeamGadget = defineModel(
  'gadgets',
  { id: key.integer(), name: column.string(), team_id: column.integer(), active: column.boolean(), code: column.encrypted() },
  { softDeletes: true, scope: ({ team }) => (typeof team === 'number' ? { team_id: team } : null) },
);
const ScopedGadget = model(TeamGadget, { param: 'gadget', scopeParams: (ctx) => ({ team: Number(ctx.headers['x-team'] ?? '1') }) });

describe('ctx.found with defineModel models', () => {
  let app: TestApp;
  let server: TestServer;
  const ids: Record<string, number | string> = {};

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'gadgets',
          routes: new Routes()
            .get('/gadgets/{gadget}', async (ctx) => json(await ctx.found(BoundGadget)))
            .get('/team-gadgets/{gadget}', async (ctx) => json((await ctx.found(ScopedGadget)).name))
            .get('/badges/{badge}', async (ctx) => json(await ctx.found(model(Badge))))
            .get('/pages/{page}', async (ctx) => json((await ctx.found(model(Page))).title))
            .get('/or-fail/{id}', async (ctx) => json((await ctx.service(TOKENS.db).query(Gadget).findOrFail(ctx.params.int('id'))).name))
            .get('/first-or-fail', async (ctx) => json((await ctx.service(TOKENS.db).query(Gadget).where('name', String(ctx.query['name'])).firstOrFail()).id)),
        }),
    });
    server = await app.serve();
    const services = await app.app.services();
    await services.get(TOKENS.database).raw.session((sql) => sql.exec([Gadget, Badge, Page].map((each) => createTableSql(each, 'sqlite')).join('\n')));
    const db = services.get(TOKENS.db);
    ids['mine'] = (await db.create(Gadget, { name: 'Lamp', team_id: 1, active: true, code: 'c-1' })).id;
    ids['theirs'] = (await db.create(Gadget, { name: 'Chair', team_id: 2, active: false, code: 'c-2' })).id;
    ids['gone'] = (await db.delete(Gadget, await db.create(Gadget, { name: 'Gone', team_id: 1, active: true, code: 'c-3' }))).id;
    ids['badge'] = (await db.create(Badge, { label: 'gold' })).id;
    await db.create(Page, { id: 'about', title: 'About us' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('gives the row as the data layer reads it: booleans, opened encrypted values, timestamps', async () => {
    const response = await server.client().get(`/gadgets/${ids['mine']}`);
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ id: ids['mine'], name: 'Lamp', active: true, code: 'c-1', deleted_at: null });
  });

  it("is a 404 for another team's row, a soft-deleted row, and a key that does not parse", async () => {
    const client = server.client();
    expect((await client.get(`/gadgets/${ids['theirs']}`)).status).toBe(404);
    expect((await client.get(`/gadgets/${ids['theirs']}`, { headers: { 'x-team': '2' } })).status).toBe(200);
    expect((await client.get(`/gadgets/${ids['gone']}`)).status).toBe(404);
    expect((await client.get('/gadgets/abc')).status).toBe(404);
    expect((await client.get('/gadgets/99999999999999999999')).status).toBe(404);
  });

  it("applies the data layer's default scope with the request's values (scopeParams)", async () => {
    const client = server.client();
    expect((await client.get(`/team-gadgets/${ids['mine']}`)).json()).toBe('Lamp');
    expect((await client.get(`/team-gadgets/${ids['theirs']}`)).status).toBe(404);
    expect((await client.get(`/team-gadgets/${ids['theirs']}`, { headers: { 'x-team': '2' } })).json()).toBe('Chair');
    expect((await client.get(`/team-gadgets/${ids['mine']}`, { headers: { 'x-team': '2' } })).status).toBe(404);
  });

  it('findOrFail and firstOrFail answer 404 through the HTTP layer', async () => {
    const client = server.client();
    expect((await client.get(`/or-fail/${ids['mine']}`)).json()).toBe('Lamp');
    expect((await client.get('/or-fail/424242')).status).toBe(404);
    expect((await client.get(`/or-fail/${ids['gone']}`)).status).toBe(404);
    expect((await client.get('/first-or-fail?name=Lamp')).status).toBe(200);
    expect((await client.get('/first-or-fail?name=Nobody')).status).toBe(404);
  });

  it('reads ULID and string keys; a malformed ULID is a 404', async () => {
    const client = server.client();
    expect((await client.get(`/badges/${String(ids['badge']).toLowerCase()}`)).json()).toMatchObject({ label: 'gold' });
    expect((await client.get('/badges/not-a-ulid')).status).toBe(404);
    expect((await client.get('/pages/about')).json()).toBe('About us');
    expect((await client.get('/pages/missing')).status).toBe(404);
  });
});
