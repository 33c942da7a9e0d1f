import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, Upload, View, formSchema, integer, json, list, object, textField } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

/**
 * Real HTML forms with bracketed names (`items[0][name]`, `tags[]`, `address[city]`), over a
 * real socket on both transports, urlencoded and multipart: nested groups and lists for
 * `ctx.valid`, errors keyed `items.1.name`, `old('items.1.name')` refilling the field; and the
 * limits: too deep or an index past 1000 is a 400 with a sentence, `__proto__` reaches nothing.
 */
const order = formSchema({
  struct: object({
    items: list(object({ name: textField(), qty: integer() })),
    tags: list(),
    address: object({ city: textField() }),
  }),
  rules(v) {
    v.nested('items', (item) => {
      item.field('name').max(5);
      item.field('qty').between(1, 9);
    });
    v.each('tags', (tag) => tag.alphaDash());
  },
});

const dir = useTempDir('fw-bracket-names-');

describe.each(['hapi', 'fetch'])('bracketed form names on the %s transport, over a real socket', (transport) => {
  let server: TestServer;

  beforeAll(async () => {
    const root = dir();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(
      join(root, 'resources', 'views', 'order.html'),
      '<form>{{ csrf_field() }}<input name="items[1][name]" value="{{ old("items.1.name") }}"><p class="name1">{{ error("items.1.name") }}</p><p class="tag1">{{ error("tags.1") }}</p></form>',
    );
    const app = TestApp.create({
      root,
      environment: { HTTP_TRANSPORT: transport },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'order',
          routes: new Routes()
            .get('/order', () => View.make('order.html'))
            .post('/order', async (ctx) => json(await ctx.valid(order)))
            .post('/echo', (ctx) => {
              const body = ctx.body() as Record<string, unknown>;
              const docs = (body['docs'] ?? []) as unknown[];
              // A file stays an `Upload` with its own path; text under the same name is text beside it.
              const shown = docs.map((doc) => (doc instanceof Upload ? [doc.originalName, doc.path.includes('passwd')] : 'text'));
              return json({ body: { ...body, docs: undefined }, docs: shown, proto: ({} as Record<string, unknown>)['polluted'] ?? null });
            })
            .withoutCsrf(),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  const post = (path: string, body: string) =>
    server.client().request('POST', path, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('urlencoded: groups and lists reach ctx.valid typed and coerced', async () => {
    const client = server.client();
    await client.get('/order');
    const answer = await client.post('/order', {
      form: { 'items[0][name]': 'Tea', 'items[0][qty]': '2', 'items[1][name]': 'Milk', 'items[1][qty]': '1', 'tags[]': ['hot', 'cold'], 'address[city]': ' Berlin ' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ items: [{ name: 'Tea', qty: 2 }, { name: 'Milk', qty: 1 }], tags: ['hot', 'cold'], address: { city: 'Berlin' } });
  });

  it('errors are keyed items.1.name and tags.1, and old("items.1.name") refills the field', async () => {
    const client = server.client();
    await client.get('/order');
    const failed = await client.post('/order', {
      form: { 'items[0][name]': 'Tea', 'items[0][qty]': '2', 'items[1][name]': 'Oatmilk', 'items[1][qty]': '3', 'tags[]': ['hot', 'no way'], 'address[city]': 'Berlin' },
      headers: { referer: `${server.url}/order` },
    });
    expect(failed.status).toBe(303);
    const page = await client.get('/order');
    expect(page.text).toContain('name="items[1][name]" value="Oatmilk"');
    expect(page.text).toMatch(/class="name1">The items item 2 name field must not be greater than 5 characters\./u);
    expect(page.text).toMatch(/class="tag1">The tags item 2 field must only contain letters, numbers, dashes, and underscores\./u);
  });

  it('multipart: text fields nest the same way and files stay files, never merged with text', async () => {
    const form = new FormData();
    form.append('items[0][name]', 'Tea');
    form.append('docs[]', new Blob(['a'], { type: 'text/plain' }), 'a.txt');
    form.append('docs[]', new Blob(['b'], { type: 'text/plain' }), 'b.txt');
    form.append('docs[0][path]', '/etc/passwd');
    const request = new Response(form);
    const body = new Uint8Array(await request.arrayBuffer());
    const answer = await server.client().request('POST', '/echo', { body, headers: { 'content-type': request.headers.get('content-type') ?? '' } });
    expect(answer.status).toBe(200);
    const echoed = answer.json<{ body: Record<string, unknown>; docs: ([string, boolean] | 'text')[] }>();
    expect(echoed.body['items']).toEqual([{ name: 'Tea' }]);
    expect(echoed.docs).toHaveLength(3);
    expect(echoed.docs).toEqual(expect.arrayContaining([['a.txt', false], ['b.txt', false], 'text']));
  });

  it('__proto__ and constructor keys reach no prototype', async () => {
    const answer = await post('/echo', 'a[__proto__][polluted]=1&__proto__[polluted]=1&b[constructor][prototype][polluted]=1&constructor=kept&c[x]=1');
    expect(answer.status).toBe(200);
    const echoed = answer.json<{ body: Record<string, unknown>; proto: unknown }>();
    expect(echoed.proto).toBeNull();
    expect(echoed.body['constructor']).toBe('kept');
    expect(echoed.body['c']).toEqual({ x: '1' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('names nested past BODY_MAX_DEPTH, or an index of 1000 or more: 400 with the sentence', async () => {
    const deep = await post('/echo', `${encodeURIComponent('a' + '[b]'.repeat(40))}=1`);
    expect(deep.status).toBe(400);
    expect(deep.text).toContain('The request body is nested too deeply.');
    const far = await post('/echo', `${encodeURIComponent('items[5000][name]')}=x`);
    expect(far.status).toBe(400);
    expect(far.text).toContain('The form has a list with too many items.');
    const edge = await post('/echo', `${encodeURIComponent('items[1000]')}=x`);
    expect(edge.status).toBe(400);
    const within = await post('/echo', `${encodeURIComponent('a' + '[b]'.repeat(20))}=1&${encodeURIComponent('items[999]')}=x`);
    expect(within.status).toBe(200);
  });
});
