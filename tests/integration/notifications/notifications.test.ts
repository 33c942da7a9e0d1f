import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { number, object, string } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../composition/app.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { defineNotification, Notifications } from '../../../composition/notifications.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { TOKENS } from '../../../composition/tokens.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import { aUser } from '../../support/builders.js';
import { signedIn } from '../../support/flows.js';

const InvoicePaid = defineNotification({
  name: 'invoice-paid',
  payload: object({ invoice: number(), url: string() }),
  via: ['mail', 'database'],
  mail: ({ invoice }, user) => ({ subject: `Invoice ${invoice} is paid`, text: `Thanks, ${user.name} <3\n\nWe got it.` }),
  database: ({ invoice, url }) => ({ message: `Invoice ${invoice} is paid`, url }),
});

const dir = useTempDir('fw-notifications-');

describe('defineNotification and the notifier refuse mistakes when they are made', () => {
  it.each<[string, () => unknown, RegExp]>([
    ['a bad name', () => defineNotification({ name: 'Bad Name', payload: object({}), via: ['database'], database: () => ({}) }), /lower-case/u],
    ['no channel', () => defineNotification({ name: 'x', payload: object({}), via: [] }), /no channel/u],
    ['mail without mail()', () => defineNotification({ name: 'x', payload: object({}), via: ['mail'] }), /has no mail\(\)/u],
    ['wrong data', () => InvoicePaid.with({ invoice: 'seven' as unknown as number, url: '/' }), /Invalid data for notification "invoice-paid": invoice: /u],
    ['a name twice', () => Notifications.create().notification(InvoicePaid).notification(InvoicePaid), /registered twice/u],
  ])('%s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`notifications on ${engine.name}`, () => {
    let app: TestApp;
    let server: TestServer;
    let root = '';
    let ada = 0;
    let bob = 0;

    beforeAll(async () => {
      root = join(dir(), engine.name);
      app = TestApp.create({
        root,
        // Queued for real (TestApp's default is sync): the test runs the worker when it chooses.
        environment: { DATABASE_URL: engine.url(), QUEUE_CONNECTION: 'database', QUEUE_SERVE_WORKERS: '0' },
        build: (options) => createDefaultApp(options).module(Notifications.create().notification(InvoicePaid)),
      });
      server = await app.serve();
      ada = (await app.createUser(aUser({ name: 'Ada', email: 'ada@example.com' }))).id;
      bob = (await app.createUser(aUser({ name: 'Bob', email: 'bob@example.com' }))).id;
    });
    afterAll(async () => {
      await server.stop();
    });

    const mails = async () => {
      const folder = join(root, 'storage', 'mail');
      if (!existsSync(folder)) return [];
      return Promise.all(readdirSync(folder).map((file) => simpleParser(readFileSync(join(folder, file)))));
    };
    const work = async () => expect((await app.call('queue:work', ['--queue', 'notifications', '--once'])).code).toBe(0);

    it('sends through the queue: nothing happens until a worker runs the job; then a mail and an unread row', async () => {
      const notifier = (await app.app.services()).get(TOKENS.notifier);
      await notifier.send(ada, InvoicePaid.with({ invoice: 7, url: '/invoices/7' }));
      await notifier.send(ada, InvoicePaid.with({ invoice: 8, url: 'javascript:alert(1)' }));
      await notifier.send(bob, InvoicePaid.with({ invoice: 9, url: '/invoices/9' }));
      expect(await mails()).toHaveLength(0);
      await work();
      const sent = await mails();
      expect(sent.map((mail) => mail.subject).sort()).toEqual(['Invoice 7 is paid', 'Invoice 8 is paid', 'Invoice 9 is paid']);
      const seven = sent.find((mail) => mail.subject === 'Invoice 7 is paid');
      expect(seven?.text?.trim()).toBe('Thanks, Ada <3\n\nWe got it.');
      expect(seven?.html).toContain('<p>Thanks, Ada &#60;3</p>');
      const unread = await (await app.app.services()).get(TOKENS.notificationStore).unread(ada, 10);
      expect(unread.map((n) => n.data['message'])).toEqual(['Invoice 8 is paid', 'Invoice 7 is paid']);
    });

    it('fw/notifications.html lists the signed-in user\'s unread ones, links only safe URLs, and marks one or all as read', async () => {
      const client = await signedIn(server, 'ada@example.com');
      const page = await client.get('/notifications');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<a href="/invoices/7">Invoice 7 is paid</a>');
      expect(page.text).toContain('Invoice 8 is paid');
      expect(page.text).not.toContain('javascript:');
      expect(page.text).not.toContain('Invoice 9');

      const [newest] = await (await app.app.services()).get(TOKENS.notificationStore).unread(ada, 10);
      // Bob cannot mark Ada's notification.
      const bobs = await signedIn(server, 'bob@example.com');
      await bobs.get('/notifications');
      expect((await bobs.post(`/notifications/${newest!.id}/read`)).status).toBe(303);
      expect((await client.get('/notifications')).text).toContain('Invoice 8 is paid');

      const marked = await client.post(`/notifications/${newest!.id}/read`);
      expect(marked.location).toBe('/notifications');
      const after = await client.get('/notifications');
      expect(after.text).toContain('Marked as read.');
      expect(after.text).not.toContain('Invoice 8 is paid');
      expect(after.text).toContain('Invoice 7 is paid');

      await client.post('/notifications/read-all');
      const none = await client.get('/notifications');
      expect(none.text).toContain('1 notification marked as read.');
      expect(none.text).toContain('You have no unread notifications.');
      expect((await bobs.get('/notifications')).text).toContain('Invoice 9 is paid');
    });

    it('guests are sent to the login page', async () => {
      expect((await server.client().get('/notifications')).location).toBe('/login');
    });
  });
}

describe('make:notification', () => {
  it('writes src/notifications/<name>.ts with mail and database channels, once', async () => {
    const root = join(dir(), 'generated');
    const app = TestApp.create({ root, build: (options) => App.create(options) });
    try {
      expect(await app.call('make:notification', ['InvoicePaid'])).toMatchObject({ code: 0, stdout: 'Created src/notifications/invoice-paid.ts (InvoicePaid).' });
      const source = readFileSync(join(root, 'src', 'notifications', 'invoice-paid.ts'), 'utf8');
      expect(source).toContain("export const InvoicePaid = defineNotification({\n  name: 'invoice-paid',");
      expect(source).toContain("via: ['mail', 'database'],");
      expect(await app.call('make:notification', ['invoice_paid'])).toMatchObject({ code: 1, stderr: expect.stringContaining('exists already') as string });
      expect((await app.call('make:notification', ['9lives'])).code).toBe(2);
    } finally {
      await app.close();
    }
  });
});
