/**
 * `ctx.form(struct)`, the spec's unvalidated `Form<T>`/`Json<T>`, over a real socket: typed by
 * its struct, no rules; a checkbox's `on` is refused with 422 (it means "ticked" to `ctx.valid` only).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, checkbox, formSchema, integer, json, object, textField } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-unvalidated-form-');
const settings = object({ name: textField(), remember: checkbox(), seats: integer() });

describe('ctx.form(): the unvalidated body refuses a checkbox’s `on`', () => {
  let server: TestServer;

  beforeAll(async () => {
    const root = dir();
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'unvalidated-form',
          routes: new Routes()
            .post('/settings', (ctx) => {
              const form = ctx.form(settings);
              // Typed: a boolean and a number, not text.
              return json({ remember: form.remember, seats: form.seats + 1 });
            })
            .post('/settings/valid', async (ctx) => json(await ctx.valid(formSchema({ struct: settings })))),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server?.stop());

  it('reads a form with true/false and numbers as text into their types', async () => {
    const response = await server.client().post('/settings', { form: { name: 'Ada', remember: 'false', seats: '2' } });
    expect([response.status, response.json()]).toEqual([200, { remember: false, seats: 3 }]);
  });

  it('reads a JSON body the same way', async () => {
    const response = await server.client().post('/settings', { json: { name: 'Ada', remember: true, seats: 4 } });
    expect([response.status, response.json()]).toEqual([200, { remember: true, seats: 5 }]);
  });

  it('a browser form with `on` gets a 422 page naming the field, in its language', async () => {
    const response = await server.client().post('/settings', { form: { name: 'Ada', remember: 'on', seats: '2' } });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/u);
    expect(response.text).toContain('The remember field must be true or false.');
    const german = await server.client().post('/settings', { form: { name: 'Ada', remember: 'on', seats: '2' }, headers: { 'accept-language': 'de' } });
    expect(german.status).toBe(422);
    expect(german.text).toContain('Das Feld remember muss wahr oder falsch sein.');
  });

  it('an API client gets 422 JSON with every field that does not fit, as ctx.valid answers', async () => {
    const response = await server.client().post('/settings', { form: { remember: 'on', seats: 'many' }, headers: { accept: 'application/json' } });
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({
      message: 'The given data was invalid.',
      errors: { name: ['The name field is required.'], remember: ['The remember field must be true or false.'], seats: ['The seats field must be a whole number.'] },
    });
  });

  it('an unticked checkbox (not sent) is missing for ctx.form, false for ctx.valid', async () => {
    const form = await server.client().post('/settings', { form: { name: 'Ada', seats: '2' }, headers: { accept: 'application/json' } });
    expect([form.status, form.json()]).toEqual([422, { message: 'The given data was invalid.', errors: { remember: ['The remember field is required.'] } }]);
    const valid = await server.client().post('/settings/valid', { form: { name: 'Ada', seats: '2' }, headers: { accept: 'application/json' } });
    expect([valid.status, valid.json()]).toEqual([200, { name: 'Ada', remember: false, seats: 2 }]);
  });

  it('ctx.valid on the same route shape still takes `on` as ticked', async () => {
    const response = await server.client().post('/settings/valid', { form: { name: 'Ada', remember: 'on', seats: '2' }, headers: { accept: 'application/json' } });
    expect([response.status, response.json()]).toEqual([200, { name: 'Ada', remember: true, seats: 2 }]);
  });
});
