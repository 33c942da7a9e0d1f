/**
 * The engine outside HTTP, as a CSV import or a command uses it: the app's FormValidation
 * service validates rows with the same rules and messages as `ctx.valid()`, database rules
 * included, in the language asked for.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shape } from '../../../application/validation/shape.js';
import { TOKENS } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-rows-');
const row: Shape<Record<string, string>> = { parse: (input) => ({ ok: true, value: input as Record<string, string> }) };

describe('FormValidation (CSV rows, commands, jobs)', () => {
  let testApp: TestApp;
  let server: TestServer;
  beforeAll(async () => {
    const root = dir();
    testApp = TestApp.create({ root, environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}` }, build: createDefaultApp });
    server = await testApp.serve();
    await testApp.call('user:create', ['--email', 'taken@example.com', '--name', 'Taken']);
  });
  afterAll(() => server?.stop());

  it('validates each row like a form, with the database rules and the language asked for', async () => {
    const forms = (await testApp.app.services()).get(TOKENS.formValidation);
    const importRow = { shape: row, fields: { email: { required: true, email: true, unique: ['users', 'email'] as [string, string] }, name: { required: true, max: 20 } } };
    const rows = [
      { email: 'new@example.com', name: 'Ada' },
      { email: 'taken@example.com', name: 'Grace' },
      { email: 'nope', name: '' },
    ];
    const results = await Promise.all(rows.map((each) => forms.validate(importRow, each, { locale: 'de' })));
    expect(results).toEqual([
      { kind: 'valid', value: rows[0] },
      { kind: 'invalid', errors: { email: ['Email ist bereits vergeben.'] } },
      { kind: 'invalid', errors: { email: ['Das Feld email muss eine gültige E-Mail-Adresse sein.'], name: ['Das Feld name ist erforderlich.'] } },
    ]);
    expect(await forms.validate(importRow, rows[1])).toEqual({ kind: 'invalid', errors: { email: ['The email has already been taken.'] } });
  });
});
