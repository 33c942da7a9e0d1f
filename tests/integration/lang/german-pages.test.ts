/** A translated page over a real socket: an app with APP_LOCALE=de shows the Auth pages and their errors in German. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-german-');

describe('APP_LOCALE=de', () => {
  let server: TestServer;
  beforeAll(async () => {
    const root = dir();
    const app = TestApp.create({ root, environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_LOCALE: 'de' }, build: createDefaultApp });
    server = await app.serve();
  });
  afterAll(() => server?.stop());

  it('shows the login page in German', async () => {
    const page = (await server.client().get('/login')).text;
    expect(page).toContain('<h1>Anmelden</h1>');
    expect(page).toContain('Passwort vergessen?');
    expect(page).toContain('Angemeldet bleiben');
    expect(page).not.toContain('Forgot your password?');
  });

  it('shows the register page’s validation errors in German', async () => {
    const client = server.client();
    await client.get('/register');
    await client.post('/register', { form: { name: '', email: 'nope', password: 'x', password_confirmation: 'y' }, headers: { referer: `${server.url}/register` } });
    const page = (await client.get('/register')).text;
    expect(page).toContain('Konto erstellen');
    expect(page).toContain('Das Feld name ist erforderlich.');
    expect(page).toContain('Das Feld email muss eine gültige E-Mail-Adresse sein.');
  });

  it('says the Auth routes’ sentences in German: a failed login, the reset link’s status and the home page', async () => {
    const client = server.client();
    await client.get('/login');
    await client.post('/login', { form: { email: 'nobody@example.com', password: 'wrong-password' }, headers: { referer: `${server.url}/login` } });
    const login = (await client.get('/login')).text;
    expect(login).toContain('Diese Zugangsdaten passen zu keinem unserer Konten.');
    expect(login).not.toContain('These credentials');

    await client.get('/forgot-password');
    await client.post('/forgot-password', { form: { email: 'nobody@example.com' }, headers: { referer: `${server.url}/forgot-password` } });
    expect((await client.get('/forgot-password')).text).toContain('Falls ein Konto diese Adresse verwendet, haben wir einen Link zum Zurücksetzen des Passworts dorthin geschickt.');

    const home = (await server.client().get('/')).text;
    expect(home).toContain('<h1>Es läuft!</h1>');
  });
});
