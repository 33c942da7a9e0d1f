import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redirect, Routes, View, checkbox, formSchema, integer, json, object, textField } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDir } from '../../support/databases.js';

const signup = formSchema({
  struct: object({ name: textField(), email: textField(), age: integer(), terms: checkbox() }),
  prepare: (input) => {
    const fields = input as Record<string, unknown>;
    return { ...fields, email: typeof fields['email'] === 'string' ? fields['email'].toLowerCase() : fields['email'] };
  },
  rules(v, value) {
    v.field('name').required().max(20);
    v.field('email').required().email().unique('users', 'email');
    v.field('age').required().between(13, 130);
    v.field('terms').accepted();
    v.field('password', value['password']).required().min(8).confirmed();
  },
});

const adminOnly = formSchema({ struct: object({ note: textField() }), authorize: () => false });

const dir = useTempDir('fw-valid-');

describe('ctx.valid() over a real socket', () => {
  let server: TestServer;

  beforeAll(async () => {
    const root = dir();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(
      join(root, 'resources', 'views', 'signup.html'),
      '<form>{{ csrf_field() }}<input name="name" value="{{ old("name") }}"><p class="name">{{ error("name") }}</p><p class="age">{{ error("age") }}</p><p class="email">{{ error("email") }}</p></form>',
    );
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'signup',
          routes: new Routes()
            .get('/signup', () => View.make('signup.html'))
            .post('/signup', async (ctx) => {
              const form = await ctx.valid(signup);
              return json({ ok: true, form });
            })
            .post('/admin-note', async (ctx) => json(await ctx.valid(adminOnly)))
            .post('/posted-only', () => Redirect.back())
            .get('/search', async (ctx) => json(await ctx.valid(formSchema({ struct: object({ q: textField() }) }))))
            .get('/done', () => Redirect.to('/')),
        }),
    });
    server = await app.serve();
    await app.call('user:create', ['--email', 'taken@example.com', '--name', 'Taken']);
  });
  afterAll(() => server.stop());

  const good = { name: 'Ada', email: 'ADA@example.com', age: '36', terms: 'on', password: 'correct horse', password_confirmation: 'correct horse' };

  it('hands the handler typed, coerced values', async () => {
    const response = await server.client().post('/signup', { form: good });
    expect(response.json()).toEqual({ ok: true, form: { name: 'Ada', email: 'ada@example.com', age: 36, terms: true } });
  });

  it('sends a plain form back (303) with every error and the old input, but no password', async () => {
    const client = server.client();
    await client.get('/signup');
    const failed = await client.post('/signup', {
      form: { name: 'A very long name that does not fit', email: 'taken@example.com', age: 'ten', password: 'short', password_confirmation: 'other' },
      headers: { referer: `${server.url}/signup` },
    });
    expect(failed.status).toBe(303);
    expect(failed.location).toBe('/signup');
    const page = await client.get('/signup');
    expect(page.text).toContain('value="A very long name that does not fit"');
    expect(page.text).toMatch(/class="name">The name field must not be greater than 20 characters\./u);
    expect(page.text).toMatch(/class="age">The age field must be a whole number\./u);
    expect(page.text).toMatch(/class="email">The email has already been taken\./u);
    expect(page.text).not.toContain('short');
    const again = await client.get('/signup');
    expect(again.text).not.toContain('A very long name');
  });

  it('sends a form posted without a Referer back to its own page, with its errors', async () => {
    // Browsers with Referrer-Policy: no-referrer send none: the page at the post's own address
    // (GET /signup for POST /signup) is where the form was; / would lose the errors from view.
    const client = server.client();
    await client.get('/signup');
    // The test client sends the last page as the Referer, as browsers do by default.
    client.lastPage = null;
    const failed = await client.post('/signup', { form: { ...good, age: 'ten' } });
    expect(failed.status).toBe(303);
    expect(failed.location).toBe('/signup');
    const page = await client.get('/signup');
    expect(page.text).toMatch(/class="age">The age field must be a whole number\./u);
    // A post to an address with no page of its own still goes home.
    client.lastPage = null;
    const elsewhere = await client.post('/posted-only', { form: { note: 'x' } });
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.location).toBe('/');
  });

  it('answers 422 with the errors as JSON for API clients and partial updates', async () => {
    for (const headers of [{ accept: 'application/json' }, { 'hx-request': 'true' }]) {
      const response = await server.client().post('/signup', { form: { ...good, terms: '' }, headers });
      expect(response.status).toBe(422);
      expect(response.json()).toEqual({ message: 'The given data was invalid.', errors: { terms: ['The terms field must be accepted.'] } });
    }
  });

  it('validates a JSON body the same way', async () => {
    const response = await server.client().post('/signup', { json: { ...good, age: 7 } });
    expect(response.status).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({ age: ['The age field must be between 13 and 130.'] });
  });

  it('answers 403 when the form refuses the user', async () => {
    expect((await server.client().post('/admin-note', { form: { note: 'x' } })).status).toBe(403);
  });

  it('validates the query of a GET', async () => {
    expect((await server.client().get('/search?q=fw')).json()).toEqual({ q: 'fw' });
    expect((await server.client().get('/search', { headers: { accept: 'application/json' } })).status).toBe(422);
  });
});
