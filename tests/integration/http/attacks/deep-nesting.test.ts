import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../../composition/testing.js';
import { DEFAULT_BODY_MAX_DEPTH } from '../../../../domain/http/body-depth.js';
import { useTempDir } from '../../../support/databases.js';
import * as flows from '../../../support/flows.js';

/**
 * Deeply nested bodies (outside review: `[[[[…]]]]` 5000 deep in a JSON login gave a 500 and an
 * error-level stack overflow). On every route of the default app that takes a body, for a guest
 * and for a signed-in user: arrays, objects and a mix nested past BODY_MAX_DEPTH get 400 with the
 * framework's sentence and a warn line, never a 500 or an error line; so do forms whose bracketed
 * names (`a[b][c]`, read as nested groups) nest past it; bodies within the limit go on as usual.
 */
const dir = useTempDir('fw-deep-nesting-');
const TOO_DEEP = 'The request body is nested too deeply.';
const PASSWORD = 'correct horse battery';

type Kind = 'array' | 'object' | 'mixed';

/** JSON text nesting `levels` containers of one kind, built as text (the value would be as deep). */
function nestedJson(levels: number, kind: Kind): string {
  let open = '';
  let close = '';
  for (let level = 0; level < levels; level++) {
    const array = kind === 'array' || (kind === 'mixed' && level % 2 === 0);
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

describe('deeply nested bodies on every body-reading route of the default app, over a real socket', () => {
  const clock = new FixedClock('2026-04-01T09:00:00Z');
  let testApp: TestApp;
  let server: TestServer;
  let routes: { method: string; path: string }[] = [];
  let member: TestClient;

  beforeAll(async () => {
    testApp = TestApp.create({ root: dir(), clock, environment: { APP_URL: 'http://localhost' }, build: createDefaultApp });
    server = await testApp.serve();
    const listed = await testApp.call('route:list', ['--json']);
    const all = JSON.parse(listed.stdout) as { method: string; path: string }[];
    // Every route that may read a body, with its parameters filled in.
    routes = all
      .flatMap((route) => route.method.split('|').map((method) => ({ method, path: route.path.replace(/\{[^}]+\}/gu, 'x') })))
      .filter((route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method));
    await testApp.createUser({ name: 'Member', email: 'member@example.com', password: PASSWORD, verified: true });
    member = server.client();
    expect((await flows.signIn(member, 'member@example.com', PASSWORD)).location).toBe('/');
    await member.get('/account');
  });
  afterAll(() => server.stop());
  // The guest forms allow 30 posts a minute per client.
  beforeEach(() => clock.advance(61_000));

  function send(client: TestClient, route: { method: string; path: string }, body: string, type: string) {
    clock.advance(3_000);
    // A length, not chunks: Node's client sends no body at all with a chunked DELETE.
    return client.request(route.method, route.path, { body, headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) } });
  }

  it('finds the body-reading routes it attacks', () => {
    const paths = routes.map((route) => `${route.method} ${route.path}`);
    for (const expected of ['POST /login', 'POST /register', 'POST /forgot-password', 'POST /reset-password', 'POST /account/password']) expect(paths).toContain(expected);
  });

  it.each<Kind>(['array', 'object', 'mixed'])('JSON of %s nested 5000 deep: 400 with the sentence, for a guest and a member, on every route', async (kind) => {
    const before = testApp.logs.length;
    for (const client of [server.client(), member]) {
      await client.get('/');
      for (const route of routes) {
        const answer = await send(client, route, nestedJson(5000, kind), 'application/json');
        expect(answer.status, `${route.method} ${route.path}`).toBe(400);
        expect(answer.text, `${route.method} ${route.path}`).toContain(TOO_DEEP);
      }
    }
    const lines = testApp.logs.slice(before);
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
    expect(lines.filter((line) => line.level === 'warn' && line.message.includes('BODY_MAX_DEPTH')).length).toBeGreaterThan(0);
  });

  it('fast-check: any depth past the limit, of any kind, as JSON or +json, is a 400; at the limit it goes on', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: DEFAULT_BODY_MAX_DEPTH + 1, max: 20_000 }),
        fc.constantFrom<Kind>('array', 'object', 'mixed'),
        fc.constantFrom('application/json', 'application/vnd.api+json', 'application/json; charset=utf-8'),
        fc.constantFrom('POST /login', 'POST /register', 'POST /forgot-password', 'POST /reset-password'),
        async (levels, kind, type, target) => {
          const [method = 'POST', path = '/'] = target.split(' ');
          const client = server.client();
          await client.get('/login');
          const answer = await send(client, { method, path }, nestedJson(levels, kind), type);
          expect(answer.status).toBe(400);
          const within = await send(client, { method, path }, nestedJson(DEFAULT_BODY_MAX_DEPTH, kind), type);
          expect(within.status, 'a body at the limit reaches the route').not.toBe(400);
          expect(within.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('forms with bracketed names nested past the limit: 400 with the sentence on every route; a leading bracket stays a flat key', async () => {
    const client = server.client();
    await client.get('/login');
    const before = testApp.logs.length;
    for (const route of routes) {
      for (const name of ['a' + '[b]'.repeat(3000), 'email' + '[0]'.repeat(500), '_method' + '[x]'.repeat(100), 'a' + '[b]'.repeat(DEFAULT_BODY_MAX_DEPTH)]) {
        const answer = await send(client, route, `${encodeURIComponent(name)}=1&email=x%40example.com`, 'application/x-www-form-urlencoded');
        expect(answer.status, `${route.method} ${route.path} ${name.slice(0, 20)}`).toBe(400);
        expect(answer.text).toContain(TOO_DEEP);
      }
      // `[][]…` has no name before its brackets: qs would not nest it either; the route answers as to any form.
      const flat = await send(client, route, `${encodeURIComponent('[]'.repeat(3000))}=1&email=x%40example.com`, 'application/x-www-form-urlencoded');
      expect(flat.status, `${route.method} ${route.path} [][]…`).toBeLessThan(500);
      const within = await send(client, route, `${encodeURIComponent('a' + '[b]'.repeat(DEFAULT_BODY_MAX_DEPTH - 1))}=1&email=x%40example.com`, 'application/x-www-form-urlencoded');
      expect(within.status, `${route.method} ${route.path} within the limit`).not.toBe(400);
      expect(within.status).toBeLessThan(500);
    }
    const lines = testApp.logs.slice(before);
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });
});
