import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LogMailer } from '../../../adapters/mail/log-mailer.js';
import { SmtpMailer } from '../../../adapters/mail/smtp-mailer.js';
import { TestApp } from '../../../composition/testing.js';
import { TOKENS } from '../../../composition/tokens.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-mailer-binding-');

describe('MAIL_URL picks the mailer', () => {
  it("log: by default, writing to the app's storage/mail", async () => {
    const app = TestApp.create({ root: dir() });
    const mailer = (await app.app.services()).get(TOKENS.mailer);
    expect(mailer).toBeInstanceOf(LogMailer);

    await mailer.send({ to: { address: 'ada@example.com' }, subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' });
    expect(readdirSync(join(dir(), 'storage', 'mail'))).toEqual([expect.stringMatching(/\.eml$/u)]);
    await app.close();
  });

  it('smtp:// and smtps://: SMTP, closed with the app', async () => {
    for (const url of ['smtp://user:secret@127.0.0.1:2525', 'smtps://user:secret@127.0.0.1']) {
      const app = TestApp.create({ environment: { MAIL_URL: url } });
      const mailer = (await app.app.services()).get(TOKENS.mailer);
      expect(mailer).toBeInstanceOf(SmtpMailer);

      const close = vi.spyOn(mailer as SmtpMailer, 'close');
      await app.close();
      expect(close).toHaveBeenCalledOnce();
    }
  });
});
