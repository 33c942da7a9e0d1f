/**
 * Spec 002: every built-in template is replaced by a file of the same path under
 * `resources/views/`. Each row writes a replacement into a running app (APP_ENV=local re-reads
 * templates, so one app serves every row), reaches the template the way a visitor or the app
 * does (a page, an error, a mail), and finds the replacement's mark; then removes it and finds
 * the built-in again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultApp } from '../../../composition/default-app.js';
import { QueueDashboard, Routes, TOKENS, View } from '../../../composition/index.js';
import { Notifications } from '../../../composition/notifications.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { useTempDir } from '../../support/databases.js';
import { testLogin } from '../../support/flows.js';

type Reach = (client: Clients) => Promise<string>;
interface Clients {
  guest: TestClient;
  user: TestClient;
  /** Sends the reset mail to the user and returns the new mail's HTML and text parts. */
  resetMail: () => Promise<string>;
  verifyMail: () => Promise<string>;
}

/** A page that only shows a block, so a replaced layout or a replaced partial is easy to see. */
const MARK = (name: string) => `REPLACED ${name}`;

const ROWS: { template: string; replacement?: string; reach: Reach }[] = [
  { template: 'fw/auth/login.html', reach: ({ guest }) => text(guest, '/login') },
  { template: 'fw/auth/register.html', reach: ({ guest }) => text(guest, '/register') },
  { template: 'fw/auth/forgot-password.html', reach: ({ guest }) => text(guest, '/forgot-password') },
  { template: 'fw/auth/reset-password.html', reach: ({ guest }) => text(guest, '/reset-password/some-token') },
  { template: 'fw/auth/verify-email.html', reach: ({ user }) => text(user, '/verify-email') },
  { template: 'fw/auth/confirm-password.html', reach: ({ user }) => text(user, '/confirm-password') },
  { template: 'fw/auth/account.html', reach: ({ user }) => text(user, '/account') },
  { template: 'fw/error.html', reach: ({ guest }) => text(guest, '/no-such-page', 404) },
  {
    template: 'fw/layout.html',
    replacement: `${MARK('fw/layout.html')}{% block content %}{% endblock %}`,
    reach: ({ guest }) => text(guest, '/login'),
  },
  { template: 'fw/queue/dashboard.html', reach: ({ user }) => text(user, '/queue') },
  { template: 'fw/notifications.html', reach: ({ user }) => text(user, '/notifications') },
  {
    template: 'fw/pagination.html',
    replacement: `{% macro pagination(page, page_url) %}${MARK('fw/pagination.html')}{% endmacro %}{% macro simple_pagination(page, page_url) %}{% endmacro %}`,
    reach: ({ guest }) => text(guest, '/paged'),
  },
  {
    template: 'fw/ui.html',
    replacement: `{% macro button(label) %}${MARK('fw/ui.html')} {{ label }}{% endmacro %}`,
    reach: ({ guest }) => text(guest, '/kit'),
  },
  {
    template: 'fw/mail/layout.html',
    replacement: `${MARK('fw/mail/layout.html')}{% block content %}{% endblock %}`,
    reach: ({ resetMail }) => resetMail(),
  },
  {
    template: 'fw/mail/button.html',
    replacement: `{% macro button(url, label) %}${MARK('fw/mail/button.html')} {{ url }}{% endmacro %}`,
    reach: ({ resetMail }) => resetMail(),
  },
  {
    template: 'fw/mail/components.html',
    replacement: `{% macro button(url, label) %}${MARK('fw/mail/components.html')}{% endmacro %}{% macro plain_link(url, label) %}{% endmacro %}`,
    reach: ({ verifyMail }) => verifyMail(),
  },
  { template: 'fw/mail/auth/reset-password.html', reach: ({ resetMail }) => resetMail() },
  { template: 'fw/mail/auth/reset-password.txt', reach: ({ resetMail }) => resetMail() },
  { template: 'fw/mail/auth/verify-email.html', reach: ({ verifyMail }) => verifyMail() },
  { template: 'fw/mail/auth/verify-email.txt', reach: ({ verifyMail }) => verifyMail() },
];

async function text(client: TestClient, path: string, status = 200): Promise<string> {
  const response = await client.get(path);
  expect(response.status, path).toBe(status);
  return response.text;
}

const dir = useTempDir('fw-replace-');
const USER = 'ada@example.com';

describe('built-in templates an app replaces with resources/views/<same path>', () => {
  let app: TestApp;
  let server: TestServer;
  let clients: Clients;
  const views = () => join(dir(), 'resources', 'views');

  beforeAll(async () => {
    mkdirSync(views(), { recursive: true });
    writeFileSync(join(views(), 'paged.html'), '{% from "fw/pagination.html" import pagination %}{{ pagination(page, page_url) }}');
    writeFileSync(join(views(), 'kit.html'), '{% import "fw/ui.html" as ui %}{{ ui.button("Save") if ui.button is defined else "the built-in kit" }}');
    app = TestApp.create({
      root: dir(),
      environment: { APP_ENV: 'local', APP_DEBUG: 'false', MAIL_URL: 'log:', APP_URL: 'http://localhost' },
      build: (options) =>
        createDefaultApp(options)
          .module({
            name: 'replace-test',
            routes: new Routes()
              .get('/paged', () => View.make('paged.html', { page: { page: 2, last_page: 3, total: 30, per_page: 10, items: [] } }))
              .get('/kit', () => View.make('kit.html'))
              .post('/test-login/{id}', testLogin),
          })
          .module(QueueDashboard.create({ gate: 'view-queue' }))
          .module(Notifications.create())
          .gate('view-queue', () => true),
    });
    await app.call('migrate');
    server = await app.serve();
    const user = await app.createUser({ email: USER, name: 'Ada', password: 'correct horse battery staple' });
    const signedIn = server.client();
    expect((await signedIn.post(`/test-login/${user.id}`)).status).toBe(200);
    const services = await app.app.services();
    clients = {
      guest: server.client(),
      user: signedIn,
      resetMail: async () => {
        const record = await services.get(TOKENS.userRepository).findById(user.id);
        if (record === null) throw new Error('the user is gone');
        await services.get(TOKENS.authMailNow).sendPasswordReset(record, 'a-reset-token');
        return newestMail();
      },
      verifyMail: async () => {
        const record = await services.get(TOKENS.userRepository).findById(user.id);
        if (record === null) throw new Error('the user is gone');
        await services.get(TOKENS.authMailNow).sendEmailVerification(record);
        return newestMail();
      },
    };
  });
  afterAll(async () => {
    await server.stop();
  });

  async function newestMail(): Promise<string> {
    const folder = join(dir(), 'storage', 'mail');
    const files = existsSync(folder) ? readdirSync(folder).sort() : [];
    const file = files.at(-1);
    if (file === undefined) throw new Error('no mail was sent');
    const mail = await simpleParser(readFileSync(join(folder, file)));
    rmSync(join(folder, file));
    return `${mail.html === false ? '' : mail.html}\n----\n${mail.text ?? ''}`;
  }

  it.each(ROWS)('$template', async ({ template, replacement, reach }) => {
    expect(existsSync(join(FRAMEWORK_TEMPLATES, template)), `the built-in ${template} exists`).toBe(true);
    const file = join(views(), template);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, replacement ?? MARK(template));
    try {
      expect(await reach(clients)).toContain(MARK(template));
    } finally {
      rmSync(file);
    }
    expect(await reach(clients)).not.toContain(MARK(template));
  });
});
