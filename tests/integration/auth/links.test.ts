import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Verified } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TOKENS } from '../../../composition/tokens.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import * as flows from '../../support/flows.js';

/**
 * The links the Auth module mails refuse tampering, expiry and reuse: reset links (a token in
 * the path, checked on the form post) and verification links (a signed URL).
 */

const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;
const INVALID_RESET = 'This password reset link is invalid or has expired.';
const dir = useTempDir('fw-auth-links-');

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`reset and verification links on ${engine.name}`, () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    const verified: number[] = [];
    const seenMail = new Set<string>();
    let root: string;
    let app: TestApp;
    let server: TestServer;

    beforeAll(async () => {
      root = join(dir(), engine.name);
      app = TestApp.create({
        root,
        clock,
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:', APP_URL: 'http://localhost' },
        build: (options) => createDefaultApp(options).listen(Verified, (event) => void verified.push(event.userId)),
      });
      server = await app.serve();
    });
    afterAll(() => server.stop());
    // A new minute for every test: the guest forms allow 30 requests a minute per client.
    beforeEach(() => clock.advance(MINUTE + 1000));

    /** The link of the one new mail with this subject to this address (the log mailer keeps every mail). */
    async function newLink(subject: string, address: string): Promise<string> {
      const folder = join(root, 'storage', 'mail');
      const found: string[] = [];
      for (const file of readdirSync(folder).sort()) {
        if (seenMail.has(file)) continue;
        const mail = await simpleParser(readFileSync(join(folder, file)));
        const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
        if (mail.subject !== subject || !to.includes(address)) continue;
        seenMail.add(file);
        const link = /https?:\/\/\S+/u.exec(mail.text ?? '')?.[0];
        if (link !== undefined) found.push(link);
      }
      expect(found, `new mails '${subject}' to ${address}`).toHaveLength(1);
      const url = new URL(found[0] ?? '');
      return `${url.pathname}${url.search}`;
    }

    async function register(email: string): Promise<TestClient> {
      const client = server.client();
      const answer = await flows.register(client, { name: 'Someone', email, password: PASSWORD });
      expect([answer.status, answer.location]).toEqual([303, '/']);
      await client.get('/');
      return client;
    }

    async function requestReset(email: string): Promise<{ client: TestClient; token: string; form: string }> {
      const client = server.client();
      await client.get('/forgot-password');
      expect((await client.post('/forgot-password', { form: { email } })).status).toBe(303);
      const form = await newLink('Reset your password', email);
      expect((await client.get(form)).status).toBe(200);
      const token = /^\/reset-password\/([^/?]+)/u.exec(form)?.[1] ?? '';
      return { client, token, form };
    }

    async function resetWith(client: TestClient, token: string, email: string, password: string) {
      return client.post('/reset-password', { form: { token, email, password, password_confirmation: password } });
    }

    /** Whether a fresh browser can sign in with this password. */
    async function signsIn(email: string, password: string): Promise<boolean> {
      return (await flows.signIn(server.client(), email, password)).location === '/';
    }

    async function expectResetRefused(client: TestClient, answer: { status: number; location: string | null }) {
      expect(answer.status).toBe(303);
      expect(answer.location).not.toBe('/login');
      expect((await client.get(answer.location ?? '/')).text).toContain(INVALID_RESET);
    }

    async function isVerified(email: string): Promise<boolean> {
      const user = await (await app.app.services()).get(TOKENS.userRepository).findByEmail(email);
      return user?.isVerified() ?? false;
    }

    describe('password reset links', () => {
      it('refuse a tampered token without using up the real one', async () => {
        await register('tamper@example.com');
        const { client, token } = await requestReset('tamper@example.com');
        const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
        await expectResetRefused(client, await resetWith(client, flipped, 'tamper@example.com', 'tampered password 1'));
        for (const bad of ['', 'short', `${token}A`, token.slice(0, -1), `${token.slice(0, -1)}=`, `${token.slice(0, -1)}é`, 'x'.repeat(10_000)]) {
          const answer = await resetWith(client, bad, 'tamper@example.com', 'tampered password 1');
          expect(answer.status, JSON.stringify(bad.slice(0, 50))).toBe(303);
          clock.advance(MINUTE + 1000);
        }
        expect(await signsIn('tamper@example.com', 'tampered password 1')).toBe(false);
        expect((await resetWith(client, token, 'tamper@example.com', 'the real new password')).location).toBe('/login');
        expect(await signsIn('tamper@example.com', 'the real new password')).toBe(true);
      });

      it("refuse one user's token for another user's address", async () => {
        await register('victim@example.com');
        await register('attacker@example.com');
        const attacker = await requestReset('attacker@example.com');
        await expectResetRefused(attacker.client, await resetWith(attacker.client, attacker.token, 'victim@example.com', 'taken over password'));
        expect(await signsIn('victim@example.com', 'taken over password')).toBe(false);
        expect(await signsIn('victim@example.com', PASSWORD)).toBe(true);
      });

      it('expire after 60 minutes: at 59:59 one works, at 60:00 another is refused', async () => {
        await register('expiry@example.com');
        const late = await requestReset('expiry@example.com');
        clock.advance(60 * MINUTE);
        await expectResetRefused(late.client, await resetWith(late.client, late.token, 'expiry@example.com', 'too late password'));
        expect(await signsIn('expiry@example.com', 'too late password')).toBe(false);

        const inTime = await requestReset('expiry@example.com');
        clock.advance(60 * MINUTE - 1000);
        expect((await resetWith(inTime.client, inTime.token, 'expiry@example.com', 'just in time password')).location).toBe('/login');
        expect(await signsIn('expiry@example.com', 'just in time password')).toBe(true);
      });

      it('work once; a link replaced by a newer request no longer works', async () => {
        await register('reuse@example.com');
        const older = await requestReset('reuse@example.com');
        clock.advance(MINUTE + 1000);
        const newer = await requestReset('reuse@example.com');
        await expectResetRefused(older.client, await resetWith(older.client, older.token, 'reuse@example.com', 'older link password'));
        expect((await resetWith(newer.client, newer.token, 'reuse@example.com', 'newer link password')).location).toBe('/login');
        clock.advance(MINUTE + 1000);
        await expectResetRefused(newer.client, await resetWith(newer.client, newer.token, 'reuse@example.com', 'used twice password'));
        expect(await signsIn('reuse@example.com', 'newer link password')).toBe(true);
      });

      it('used twice at the same moment: exactly one reset wins, and its password is the one set', async () => {
        await register('race@example.com');
        const { client, token, form } = await requestReset('race@example.com');
        const other = server.client();
        await other.get(form);
        const passwords = ['first racer password', 'second racer password'];
        const answers = await Promise.all([client, other].map((racer, i) => resetWith(racer, token, 'race@example.com', passwords[i] ?? '')));
        const winners = answers.flatMap((answer, i) => (answer.location === '/login' ? [i] : []));
        expect(winners).toHaveLength(1);
        const winner = winners[0] ?? 0;
        expect(await signsIn('race@example.com', passwords[winner] ?? '')).toBe(true);
        expect(await signsIn('race@example.com', passwords[1 - winner] ?? '')).toBe(false);
      });

      it('a reset ends the sessions the user had', async () => {
        const signedIn = await register('sessions@example.com');
        const { client, token } = await requestReset('sessions@example.com');
        expect((await resetWith(client, token, 'sessions@example.com', 'after reset password')).location).toBe('/login');
        expect((await signedIn.get('/verify-email')).location).toBe('/login');
      });

      it('odd tokens in the page address give the form or a 404, never a 500', async () => {
        const client = server.client();
        for (const path of ['/reset-password/%C3%28', '/reset-password/..%2F..%2Fetc', `/reset-password/${'x'.repeat(5000)}`, '/reset-password/a?email[]=1&email[]=2', '/reset-password/a?email=%C3%28']) {
          const answer = await client.get(path);
          expect(answer.status, path).toBeLessThan(500);
        }
      });
    });

    describe('verification links', () => {
      it('refuse any change to the signed link: signature, expiry, id, hash, a missing signature', async () => {
        const client = await register('signed@example.com');
        const link = await newLink('Verify your email address', 'signed@example.com');
        const url = new URL(link, 'http://localhost');
        const [, , id = '', hash = ''] = url.pathname.split('/');
        const expires = url.searchParams.get('expires') ?? '';
        const signature = url.searchParams.get('signature') ?? '';
        const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('0') ? '1' : '0'}`;
        const tampered = [
          `/verify-email/${id}/${hash}?expires=${expires}&signature=${flip(signature)}`,
          `/verify-email/${id}/${hash}?expires=${Number(expires) + 3600}&signature=${signature}`,
          `/verify-email/${Number(id) + 1}/${hash}?expires=${expires}&signature=${signature}`,
          `/verify-email/${id}/${flip(hash)}?expires=${expires}&signature=${signature}`,
          `/verify-email/${id}/${hash}?expires=${expires}`,
          `/verify-email/${id}/${hash}`,
          `/verify-email/${id}/${hash}?expires=${expires}&signature=${signature}&signature=${signature}`,
          `/verify-email/${id}/${hash}?expires=${expires}&signature=${signature.toUpperCase()}`,
        ];
        for (const path of tampered) expect((await client.get(path)).status, path).toBe(403);
        expect(await isVerified('signed@example.com')).toBe(false);
        expect((await client.get(link)).status).toBe(303);
        expect(await isVerified('signed@example.com')).toBe(true);
      });

      it("refuse another user's link, and send a guest to log in first", async () => {
        await register('owner@example.com');
        const link = await newLink('Verify your email address', 'owner@example.com');
        const intruder = await register('intruder@example.com');
        await newLink('Verify your email address', 'intruder@example.com');
        expect((await intruder.get(link)).status).toBe(403);
        expect((await server.client().get(link)).location).toBe('/login');
        expect(await isVerified('owner@example.com')).toBe(false);
        expect(await isVerified('intruder@example.com')).toBe(false);
      });

      it('expire after 60 minutes: a link opened at 60:00 is refused, a new one works', async () => {
        const client = await register('late@example.com');
        const link = await newLink('Verify your email address', 'late@example.com');
        clock.advance(60 * MINUTE);
        expect((await client.get(link)).status).toBe(403);
        expect(await isVerified('late@example.com')).toBe(false);

        clock.advance(MINUTE);
        await client.get('/verify-email');
        expect((await client.post('/email/verification-notification')).status).toBe(303);
        const fresh = await newLink('Verify your email address', 'late@example.com');
        clock.advance(60 * MINUTE - 1000);
        expect((await client.get(fresh)).status).toBe(303);
        expect(await isVerified('late@example.com')).toBe(true);
      });

      it('are used up by use: again, it verifies nothing more; for an address no longer the user’s, it is refused', async () => {
        const client = await register('again@example.com');
        const link = await newLink('Verify your email address', 'again@example.com');
        const user = await (await app.app.services()).get(TOKENS.userRepository).findByEmail('again@example.com');
        expect((await client.get(link)).status).toBe(303);
        expect((await client.get(link)).status).toBe(303);
        expect(verified.filter((id) => id === user?.id)).toHaveLength(1);

        // The address changes (as the account page will do): links for the old one stop working.
        const raw = (await app.app.services()).get(TOKENS.database).raw;
        await raw.session((sql) => sql.query('UPDATE users SET email = ?, email_verified_at = NULL WHERE id = ?', ['changed@example.com', user?.id ?? 0]));
        expect((await client.get(link)).status).toBe(403);
        expect(await isVerified('changed@example.com')).toBe(false);
      });
    });
  });
}
