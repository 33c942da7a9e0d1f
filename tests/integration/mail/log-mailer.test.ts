import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { AddressObject } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import { LogMailer } from '../../../adapters/mail/log-mailer.js';
import type { MailMessage } from '../../../ports/mailer.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-log-mailer-');

const TOKEN = 'tok_9b2f1e7c44a0';
const URL = `https://acme.example/reset-password/${TOKEN}?email=zoe%40example.com&signature=c0ffee`;

const message: MailMessage = {
  to: { address: 'zoe@example.com', name: 'Zoë Ångström 山田' },
  subject: 'Reset your password',
  html: `<p>Hello Zoë,</p><p><a href="${URL.replaceAll('&', '&amp;')}">Reset password</a></p>`,
  text: `Hello Zoë,\n\n${URL}\n`,
};

function mailerIn(folder: string) {
  const logs = new MemoryLogger();
  const mailer = new LogMailer({ folder, from: 'Acme Shop <no-reply@acme.example>', logger: logs, clock: new FixedClock('2026-03-04T05:06:07.089Z') });
  return { logs, mailer };
}

function addresses(field: AddressObject | AddressObject[] | undefined) {
  return [field ?? []].flat().flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));
}

describe('LogMailer', () => {
  it('writes the message as an .eml file, multipart/alternative, that a mail parser reads back whole', async () => {
    const folder = join(dir(), 'whole', 'storage', 'mail');
    const { mailer } = mailerIn(folder);
    await mailer.send(message);

    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^2026-03-04T05-06-07-089Z-[0-9a-f]{8}\.eml$/u);
    const file = join(folder, files[0]!);
    // The bodies hold live tokens: only the owner may read the file.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const raw = readFileSync(file);
    // Headers are 7-bit, line endings CRLF, as on the wire.
    const head = raw.toString('latin1').split('\r\n\r\n')[0]!;
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/mu);
    expect(head).toMatch(/^MIME-Version: 1\.0$/mu);
    expect(head).toMatch(/^Message-ID: <[^>]+@acme\.example>$/mu);
    expect(head).toMatch(/^[ -~\r\n\t]*$/u);

    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Reset your password');
    expect(addresses(parsed.from)).toEqual([{ name: 'Acme Shop', address: 'no-reply@acme.example' }]);
    expect(addresses(parsed.to)).toEqual([{ name: 'Zoë Ångström 山田', address: 'zoe@example.com' }]);
    expect(parsed.date?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parsed.text).toBe(message.text);
    expect(parsed.html).toBe(message.html);
  });

  it('logs one line naming the recipient, subject and file, never the body, token or link', async () => {
    const folder = join(dir(), 'logged');
    const { logs, mailer } = mailerIn(folder);
    await mailer.send(message);

    expect(logs.lines).toHaveLength(1);
    const [line] = logs.lines;
    expect(line).toMatchObject({ level: 'info', fields: { to: 'zoe@example.com', subject: 'Reset your password' } });
    expect(line!.fields['file']).toBe(join(folder, readdirSync(folder)[0]!));
    const logged = JSON.stringify(line);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain('reset-password/');
    expect(logged).not.toContain('signature');
  });

  it('keeps every message in a file of its own, even within one millisecond', async () => {
    const folder = join(dir(), 'many');
    const { mailer } = mailerIn(folder);
    await Promise.all([mailer.send(message), mailer.send(message), mailer.send(message)]);

    expect(new Set(readdirSync(folder)).size).toBe(3);
  });

  it('lets no line break in a name add a header', async () => {
    const folder = join(dir(), 'injection');
    const { mailer } = mailerIn(folder);
    await mailer.send({ ...message, to: { address: 'zoe@example.com', name: 'Zoë\r\nBcc: thief@evil.example' } });

    const raw = readFileSync(join(folder, readdirSync(folder)[0]!));
    const parsed = await simpleParser(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(raw.toString('latin1')).not.toMatch(/^Bcc:/imu);
    expect(addresses(parsed.to).map((a) => a.address)).toEqual(['zoe@example.com']);
  });
});
