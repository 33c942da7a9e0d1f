import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TemplatedAuthMail } from '../../../../adapters/mail/templated-auth-mail.js';
import type { AuthMailLinks } from '../../../../adapters/mail/templated-auth-mail.js';
import { FRAMEWORK_TEMPLATES } from '../../../../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../../../../adapters/views/nunjucks/nunjucks-view-renderer.js';
import { registerTranslations } from '../../../../adapters/views/nunjucks/register-translations.js';
import { english, frameworkTranslator } from '../../../support/lang.js';
import { User } from '../../../../domain/users/user.js';
import type { MailMessage, Mailer } from '../../../../ports/mailer.js';

const RESET_URL = 'https://acme.example/reset-password/tok_3f9a?email=ada%40example.com&ref=mail';
const VERIFY_URL = 'https://acme.example/verify-email/7/5d41402a?expires=1767229200&signature=0a1b2c3d';

class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
}

function userNamed(name: string): User {
  const at = new Date('2026-01-01T00:00:00Z');
  return User.restore({
    id: 7,
    name,
    email: 'ada@example.com',
    passwordHash: 'argon2-hash-never-shown',
    emailVerifiedAt: null,
    sessionEpoch: 0,
    createdAt: at,
    updatedAt: at,
  });
}

const calls: string[] = [];
const links: AuthMailLinks = {
  resetPassword: (user, token) => {
    calls.push(`reset:${user.id}:${token}`);
    return RESET_URL;
  },
  verifyEmail: (user) => {
    calls.push(`verify:${user.id}`);
    return VERIFY_URL;
  },
};

const folders: string[] = [];
afterEach(() => {
  calls.length = 0;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The mail adapter over the framework's real templates, after an app's views folder when given. */
function authMail(appViews: Record<string, string> = {}) {
  const views = mkdtempSync(join(tmpdir(), 'fw-mail-views-'));
  folders.push(views);
  for (const [name, content] of Object.entries(appViews)) {
    mkdirSync(dirname(join(views, name)), { recursive: true });
    writeFileSync(join(views, name), content);
  }
  // debug: printing an undefined value fails the render, so a template typo fails here.
  const renderer = new NunjucksViewRenderer({ searchPaths: [views, FRAMEWORK_TEMPLATES], debug: true, configure: (env) => registerTranslations(env, frameworkTranslator) });
  const mailer = new RecordingMailer();
  return { mailer, mail: new TemplatedAuthMail(mailer, renderer, links, { name: 'Acme Shop' }, english) };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

const escaped = (url: string) => url.replaceAll('&', '&amp;');

describe.each([
  {
    kind: 'password reset',
    subject: 'Reset your password',
    url: RESET_URL,
    button: 'Reset password',
    call: 'reset:7:tok_3f9a',
    send: (mail: TemplatedAuthMail, user: User) => mail.sendPasswordReset(user, 'tok_3f9a'),
  },
  {
    kind: 'email verification',
    subject: 'Verify your email address',
    url: VERIFY_URL,
    button: 'Verify email address',
    call: 'verify:7',
    send: (mail: TemplatedAuthMail, user: User) => mail.sendEmailVerification(user),
  },
])('the $kind mail', ({ subject, url, button, call, send }) => {
  it('goes to the user, with its subject and the link built for that user', async () => {
    const { mailer, mail } = authMail();
    await send(mail, userNamed('Ada Lovelace'));

    expect(calls).toEqual([call]);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: { address: 'ada@example.com', name: 'Ada Lovelace' }, subject });
  });

  it('has an HTML part in the mail layout: the button and the written-out address, & escaped as HTML', async () => {
    const { mailer, mail } = authMail();
    await send(mail, userNamed('Ada Lovelace'));
    const html = mailer.sent[0]!.html;

    expect(html).toMatch(/^<!doctype html>/u);
    expect(html).toContain(`<title>${subject}</title>`);
    // The app's name heads and signs the frame.
    expect(occurrences(html, '>Acme Shop</td>')).toBe(2);
    // The button's link and the written-out one below it, each once; the address is shown once.
    expect(occurrences(html, `href="${escaped(url)}"`)).toBe(2);
    expect(occurrences(html, `>${escaped(url)}</a>`)).toBe(1);
    expect(html.indexOf(`>${button}</a>`)).toBeLessThan(html.indexOf(`>${escaped(url)}</a>`));
    // `&amp;` is the HTML for `&`: the browser follows the very same URL.
    expect(html).not.toMatch(/&(?!amp;|ldquo;|rdquo;)/u);
    expect(html).toContain('60 minutes');
    expect(html).not.toContain('argon2-hash-never-shown');
  });

  it('has a text part with the raw link exactly once (no HTML escaping)', async () => {
    const { mailer, mail } = authMail();
    await send(mail, userNamed('Ada Lovelace'));
    const text = mailer.sent[0]!.text;

    expect(occurrences(text, url)).toBe(1);
    expect(text).toContain(`\n${url}\n`);
    expect(text).not.toContain('&amp;');
    expect(text).not.toMatch(/<[a-z]/iu);
    expect(text).toMatch(/^Hello Ada Lovelace,\n/u);
    expect(text).toContain('60 minutes');
    expect(text).toMatch(/\n-- \nAcme Shop\n$/u);
  });

  it("escapes the user's name in the HTML part and leaves it as typed in the text part", async () => {
    const { mailer, mail } = authMail();
    const name = '<script>alert("x")</script> & Sons';
    await send(mail, userNamed(name));
    const { html, text, to } = mailer.sent[0]!;

    expect(html).not.toContain('<script>');
    expect(html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons,');
    expect(text).toContain(`Hello ${name},`);
    expect(to.name).toBe(name);
  });
});

describe("an app's own mail templates", () => {
  it('replace the built-in ones of the same name, with the same data', async () => {
    const { mailer, mail } = authMail({
      'fw/mail/auth/reset-password.txt': '{{ app.name | safe }} for {{ user.email | safe }}: {{ url | safe }} ({{ expires_minutes }})',
    });
    await mail.sendPasswordReset(userNamed('Ada'), 'tok_3f9a');

    expect(mailer.sent[0]!.text).toBe(`Acme Shop for ada@example.com: ${RESET_URL} (60)`);
    expect(mailer.sent[0]!.html).toContain('Reset your password'); // the built-in HTML part
  });

  it('may replace the layout alone', async () => {
    const { mailer, mail } = authMail({ 'fw/mail/layout.html': '<app-mail>{% block content %}{% endblock %}</app-mail>' });
    await mail.sendEmailVerification(userNamed('Ada'));

    expect(mailer.sent[0]!.html).toMatch(/^<app-mail>[\s\S]*Verify email address[\s\S]*<\/app-mail>$/u);
  });
});
