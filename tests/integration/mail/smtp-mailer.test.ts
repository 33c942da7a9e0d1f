import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import type { AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../../adapters/mail/smtp-mailer.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { MailMessage } from '../../../ports/mailer.js';

const USER = 'mailer-user';
// '@', ':' and '/' must be percent-encoded in MAIL_URL; the mailer must decode them.
const PASSWORD = 'p@ss:w/rd-7Q';
const CREDENTIALS = `${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}`;

const URL_WITH_AMPERSAND = 'https://acme.example/verify-email/7/5d41?expires=1767229200&signature=0a1b';
const message: MailMessage = {
  to: { address: 'zoe@example.com', name: 'Zoë Ångström 山田' },
  subject: 'Verify your email address',
  html: `<p>Hello Zoë,</p><p><a href="${URL_WITH_AMPERSAND.replaceAll('&', '&amp;')}">Verify</a></p>`,
  text: `Hello Zoë,\n\n${URL_WITH_AMPERSAND}\n`,
};

interface Received {
  raw: Buffer;
  from: string | undefined;
  to: string[];
  user: string | undefined;
  secure: boolean;
}

const servers: SMTPServer[] = [];
const mailers: SmtpMailer[] = [];

afterEach(async () => {
  for (const mailer of mailers.splice(0)) mailer.close();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A real SMTP server on a free port of 127.0.0.1 that accepts USER/PASSWORD and keeps what it receives. */
async function smtpServer(options: SMTPServerOptions = {}): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        // What onAuth returned as `user` (typed `any` on the auth response).
        const user: unknown = session.user;
        received.push({
          raw: Buffer.concat(chunks),
          from: mailFrom === false ? undefined : mailFrom.address,
          to: rcptTo.map((rcpt) => rcpt.address),
          user: typeof user === 'string' ? user : undefined,
          secure: session.secure,
        });
        callback();
      });
    },
    ...options,
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { port: (server.server.address() as AddressInfo).port, received };
}

function mailer(url: string): SmtpMailer {
  const created = new SmtpMailer({ url, from: 'Acme Shop <no-reply@acme.example>' });
  mailers.push(created);
  return created;
}

function addresses(field: AddressObject | AddressObject[] | undefined) {
  return [field ?? []].flat().flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));
}

/** The error a failed send gave. */
async function failure(promise: Promise<void>): Promise<FrameworkError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FrameworkError);
  return error as FrameworkError;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('SmtpMailer', () => {
  it('delivers both parts, the subject and UTF-8 names, authenticated, to the envelope of from and to', async () => {
    const server = await smtpServer({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    await mailer(`smtp://${CREDENTIALS}@127.0.0.1:${server.port}`).send(message);

    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail).toMatchObject({ user: USER, from: 'no-reply@acme.example', to: ['zoe@example.com'] });
    expect(mail!.raw.toString('latin1')).toMatch(/^Content-Type: multipart\/alternative;/mu);

    const parsed = await simpleParser(mail!.raw);
    expect(parsed.subject).toBe('Verify your email address');
    expect(addresses(parsed.from)).toEqual([{ name: 'Acme Shop', address: 'no-reply@acme.example' }]);
    expect(addresses(parsed.to)).toEqual([{ name: 'Zoë Ångström 山田', address: 'zoe@example.com' }]);
    expect(parsed.text).toBe(message.text);
    expect(parsed.html).toBe(message.html);
  });

  it('smtp:// moves to TLS with STARTTLS when the server offers it', async () => {
    // The server refuses to authenticate in clear text, so delivery proves the upgrade.
    // Its certificate is smtp-server's self-signed one, hence the tls option in the URL.
    const server = await smtpServer();
    await mailer(`smtp://${CREDENTIALS}@127.0.0.1:${server.port}?tls.rejectUnauthorized=false`).send(message);

    expect(server.received.map((mail) => mail.secure)).toEqual([true]);
  });

  it('smtps:// speaks TLS from the first byte', async () => {
    const server = await smtpServer({ secure: true });
    await mailer(`smtps://${CREDENTIALS}@127.0.0.1:${server.port}?tls.rejectUnauthorized=false`).send(message);

    expect(server.received.map((mail) => mail.secure)).toEqual([true]);
  });

  it('refuses a server certificate it cannot verify', async () => {
    const server = await smtpServer({ secure: true });
    const error = await failure(mailer(`smtps://${CREDENTIALS}@127.0.0.1:${server.port}`).send(message));

    expect(error.code).toBe('mail.send-failed');
    expect(server.received).toEqual([]);
  });

  it('says why a refused login failed, naming the server but no credentials', async () => {
    const server = await smtpServer({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    const wrong = 'wrong-secret-4711';
    const error = await failure(mailer(`smtp://${USER}:${wrong}@127.0.0.1:${server.port}`).send(message));

    expect(error.code).toBe('mail.send-failed');
    expect(error.message).toMatch(new RegExp(`^Mail could not be sent through smtp://127\\.0\\.0\\.1:${server.port}: .*Invalid login`, 'u'));
    expect(error.message).not.toContain(wrong);
    expect(error.message).not.toContain(USER);
    expect(server.received).toEqual([]);
  });

  it('fails clearly when nothing answers', async () => {
    const port = await closedPort();
    const error = await failure(mailer(`smtp://${CREDENTIALS}@127.0.0.1:${port}`).send(message));

    expect(error.message).toMatch(new RegExp(`^Mail could not be sent through smtp://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`, 'u'));
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toContain(encodeURIComponent(PASSWORD));
  });
});
