/**
 * The README's validation section, run: its code block is the module under test (with 'fw'
 * pointing at the framework's entry), and its JSON block is what a German app answers.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, json } from '../../../composition/index.js';
import type { FormSchema } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
const section = README.slice(README.indexOf('## Validation'), README.indexOf('\n## ', README.indexOf('## Validation') + 5));
const code = /```ts\n([\s\S]*?)```/u.exec(section)?.[1] ?? '';
const expected = JSON.parse(/```json\n([\s\S]*?)```/u.exec(section)?.[1] ?? 'null') as Record<string, string[]>;

// Inside the repo, so the rewritten import resolves; removed afterwards.
const modulePath = join(import.meta.dirname, `.readme-validation-${process.pid}.ts`);
const dir = useTempDir('fw-readme-');

describe('README: Validation', () => {
  let forms: { signup: FormSchema<unknown>; signupDeclared: FormSchema<unknown> };
  let server: TestServer;

  beforeAll(async () => {
    expect(code).toContain('formSchema');
    writeFileSync(modulePath, code.replace("from 'fw'", "from '../../../composition/index.js'"));
    forms = (await import(modulePath)) as typeof forms;
    const root = dir();
    mkdirSync(join(root, 'resources'), { recursive: true });
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_LOCALE: 'de' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'readme',
          routes: new Routes()
            .post('/chained', async (ctx) => json(await ctx.valid(forms.signup)))
            .post('/declared', async (ctx) => json(await ctx.valid(forms.signupDeclared))),
        }),
    });
    server = await app.serve();
  });
  afterAll(async () => {
    rmSync(modulePath, { force: true });
    await server?.stop();
  });

  it.each(['/chained', '/declared'])('%s answers the README’s German 422', async (path) => {
    const response = await server.client().post(path, { json: { age: '12', tags: ['a b', 'a b'] }, headers: { accept: 'application/json' } });
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({ message: 'Die übermittelten Daten sind ungültig.', errors: expected });
  });
});
