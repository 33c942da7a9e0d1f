import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { BeginSecondStep } from '../../../../application/auth/begin-second-step.js';
import { ChallengeTwoFactor } from '../../../../application/auth/challenge-two-factor.js';
import { ConfirmTwoFactor } from '../../../../application/auth/confirm-two-factor.js';
import { DisableTwoFactor } from '../../../../application/auth/disable-two-factor.js';
import { EnableTwoFactor } from '../../../../application/auth/enable-two-factor.js';
import { RegenerateRecoveryCodes } from '../../../../application/auth/regenerate-recovery-codes.js';
import { ShowTwoFactorSettings } from '../../../../application/auth/show-two-factor-settings.js';
import { TotpSecondStep } from '../../../../application/auth/totp-second-step.js';
import { TwoFactorSetups } from '../../../../application/auth/two-factor-setups.js';
import { CreateUser } from '../../../../application/users/create-user.js';
import { MemoryCacheStore } from '../../../../adapters/cache/memory-cache-store.js';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../../../adapters/crypto/aes-gcm-secret-box.js';
import { InProcessEventBus } from '../../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import type { LogLine } from '../../../../adapters/log/memory-logger.js';
import { OtpauthTotp } from '../../../../adapters/otp/otpauth-totp.js';
import { InMemoryTwoFactorStore } from '../../../../adapters/persistence/memory/in-memory-two-factor-store.js';
import { InMemoryUserRepository } from '../../../../adapters/persistence/memory/in-memory-user-repository.js';
import { QrcodeSvg } from '../../../../adapters/qr/qrcode-svg.js';
import { CryptoRandomSource } from '../../../../adapters/random/crypto-random-source.js';
import { PENDING_LOGIN_TTL_MINUTES } from '../../../../domain/auth/pending-login.js';
import type { PendingLoginJson } from '../../../../domain/auth/pending-login.js';
import { RecoveryCodeUsed, RecoveryCodesRegenerated, TwoFactorDisabled, TwoFactorEnabled } from '../../../../domain/auth/two-factor-events.js';
import { deriveAppKeys } from '../../../../domain/security/app-keys.js';
import type { User } from '../../../../domain/users/user.js';
import type { PasswordHasher } from '../../../../ports/password-hasher.js';

const hasher: PasswordHasher = {
  hash: (password) => Promise.resolve(`hashed:${password}`),
  verify: (hash, password) => Promise.resolve(hash === `hashed:${password}`),
};

/** What the user's authenticator app shows at `at` for the secret it was given. */
function appCode(secret: string, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret.replace(/ /gu, '')), timestamp: at.getTime() });
}

/** A six-digit code that is not the app's at any step near `at`. */
function wrongCode(secret: string, at: Date): string {
  const near = new Set([-1, 0, 1].map((d) => appCode(secret, new Date(at.getTime() + d * 30_000))));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

describe('two-factor sign-in', () => {
  let clock: FixedClock;
  let users: InMemoryUserRepository;
  let store: InMemoryTwoFactorStore;
  let events: object[];
  let logLines: LogLine[];
  let ada: User;
  let enable: EnableTwoFactor;
  let confirm: ConfirmTwoFactor;
  let disable: DisableTwoFactor;
  let regenerate: RegenerateRecoveryCodes;
  let show: ShowTwoFactorSettings;
  let begin: BeginSecondStep;
  let challenge: ChallengeTwoFactor;

  /** Builds the use cases around a SecretBox keyed by `appKeyByte`, as after an APP_KEY change. */
  function wire(appKeyByte: number): void {
    const random = new CryptoRandomSource();
    const box = new AesGcmSecretBox(deriveAppKeys(Buffer.alloc(32, appKeyByte)).twoFactorEncryption, random);
    const totp = new OtpauthTotp();
    const bus = new InProcessEventBus(new MemoryLogger([]));
    for (const type of [TwoFactorEnabled, TwoFactorDisabled, RecoveryCodesRegenerated, RecoveryCodeUsed]) {
      bus.listen(type, (event) => {
        events.push(event);
      });
    }
    const setups = new TwoFactorSetups(totp, new QrcodeSvg(), 'Acme');
    const secondStep = new TotpSecondStep(store, box, totp, bus, new MemoryLogger(logLines), clock);
    enable = new EnableTwoFactor(users, store, box, random, setups);
    confirm = new ConfirmTwoFactor(store, box, totp, bus, clock);
    disable = new DisableTwoFactor(store, bus);
    regenerate = new RegenerateRecoveryCodes(store, random, bus);
    show = new ShowTwoFactorSettings(users, store, box, setups);
    begin = new BeginSecondStep(secondStep, clock);
    challenge = new ChallengeTwoFactor(users, secondStep, new MemoryCacheStore(clock), clock);
  }

  beforeEach(async () => {
    clock = new FixedClock('2026-03-01T12:00:10Z');
    users = new InMemoryUserRepository();
    store = new InMemoryTwoFactorStore(users);
    events = [];
    logLines = [];
    const created = await new CreateUser(users, hasher, clock).execute({ name: 'Ada', email: 'ada@example.com', password: 'correct horse' });
    if (created.kind !== 'created') throw new Error(`no user: ${created.kind}`);
    ada = created.user;
    wire(1);
  });

  /** Enables and confirms two-factor for Ada; gives the secret and the recovery codes. */
  async function turnOn(): Promise<{ secret: string; recoveryCodes: string[] }> {
    const enabled = await enable.execute({ userId: ada.id });
    if (enabled.kind !== 'pending') throw new Error(enabled.kind);
    expect(await confirm.execute({ userId: ada.id, code: appCode(enabled.setup.secret, clock.now()) })).toEqual({ kind: 'confirmed' });
    return { secret: enabled.setup.secret, recoveryCodes: enabled.recoveryCodes };
  }

  /** What the session would hold after Ada's password passed. */
  async function pendingAfterPassword(remember = true): Promise<PendingLoginJson> {
    const started = await begin.execute({ user: ada, remember, provider: null });
    if (started.kind !== 'required') throw new Error('no second step required');
    return started.pending;
  }

  describe('setting up', () => {
    it('makes a secret to show and eight recovery codes, and asks nothing at login until confirmed', async () => {
      const enabled = await enable.execute({ userId: ada.id });
      if (enabled.kind !== 'pending') throw new Error(enabled.kind);
      expect(enabled.setup.secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/u);
      const uri = new URL(enabled.setup.uri);
      expect(decodeURIComponent(uri.pathname)).toBe('/Acme:ada@example.com');
      expect(uri.searchParams.get('secret')).toBe(enabled.setup.secret.replace(/ /gu, ''));
      expect(enabled.setup.qrCodeSvg).toMatch(/^<svg /u);
      expect(enabled.recoveryCodes).toHaveLength(8);
      expect(new Set(enabled.recoveryCodes).size).toBe(8);

      expect(await begin.execute({ user: ada, remember: false, provider: null })).toEqual({ kind: 'not-required' });
      expect(await show.execute({ userId: ada.id })).toEqual({ kind: 'pending', setup: enabled.setup });
      // The secret is stored sealed, never as typed into the app.
      const stored = await store.find(ada.id);
      expect(stored?.sealedSecret).toMatch(/^v1\./u);
      expect(stored?.sealedSecret).not.toContain(enabled.setup.secret.replace(/ /gu, '').slice(0, 8));
      expect(stored?.recoveryCodeHashes.some((h) => enabled.recoveryCodes.some((code) => h.includes(code.replace('-', ''))))).toBe(false);
    });

    it('confirms with a first code from the app, not with a wrong one, and tells listeners', async () => {
      const enabled = await enable.execute({ userId: ada.id });
      if (enabled.kind !== 'pending') throw new Error(enabled.kind);
      const now = clock.now();
      expect(await confirm.execute({ userId: ada.id, code: wrongCode(enabled.setup.secret, now) })).toEqual({ kind: 'invalid-code' });
      expect(await confirm.execute({ userId: ada.id, code: 'not a code' })).toEqual({ kind: 'invalid-code' });
      expect(events).toEqual([]);
      expect(await confirm.execute({ userId: ada.id, code: appCode(enabled.setup.secret, now) })).toEqual({ kind: 'confirmed' });
      expect(events).toEqual([new TwoFactorEnabled(ada.id)]);
      expect(await show.execute({ userId: ada.id })).toEqual({ kind: 'on', confirmedAt: now, recoveryCodesLeft: 8 });
      expect(await begin.execute({ user: ada, remember: false, provider: null })).toMatchObject({ kind: 'required' });
    });

    it('starts over with a new secret when asked again while pending; the old secret confirms nothing', async () => {
      const first = await enable.execute({ userId: ada.id });
      const second = await enable.execute({ userId: ada.id });
      if (first.kind !== 'pending' || second.kind !== 'pending') throw new Error('not pending');
      expect(second.setup.secret).not.toBe(first.setup.secret);
      expect(await confirm.execute({ userId: ada.id, code: appCode(first.setup.secret, clock.now()) })).toEqual({ kind: 'invalid-code' });
      expect(await confirm.execute({ userId: ada.id, code: appCode(second.setup.secret, clock.now()) })).toEqual({ kind: 'confirmed' });
    });

    it('refuses a new secret while on, confirms nothing twice, and knows no unknown user', async () => {
      const { secret } = await turnOn();
      expect(await enable.execute({ userId: ada.id })).toEqual({ kind: 'already-enabled' });
      clock.advance(30_000);
      expect(await confirm.execute({ userId: ada.id, code: appCode(secret, clock.now()) })).toEqual({ kind: 'not-pending' });
      expect(await enable.execute({ userId: 999 })).toEqual({ kind: 'unknown-user' });
      expect(await show.execute({ userId: 999 })).toEqual({ kind: 'unknown-user' });
      expect(await disable.execute({ userId: 999 })).toEqual({ kind: 'unknown-user' });
      expect(await confirm.execute({ userId: 999, code: '123456' })).toEqual({ kind: 'not-pending' });
    });
  });

  describe('the challenge', () => {
    it('keeps the login pending after the password, with remember me and the provider', async () => {
      await turnOn();
      const started = await begin.execute({ user: ada, remember: true, provider: 'provider_a' });
      expect(started).toEqual({
        kind: 'required',
        pending: { userId: ada.id, epoch: 0, remember: true, provider: 'provider_a', startedAt: clock.now().getTime() },
      });
    });

    it('completes the login with the current code, once', async () => {
      const { secret } = await turnOn();
      clock.advance(30_000); // the confirming code's step is used up: the next login waits for a new one
      const pending = await pendingAfterPassword(true);
      const code = appCode(secret, clock.now());
      const passed = await challenge.execute({ pending, answer: { kind: 'code', code } });
      expect(passed).toMatchObject({ kind: 'passed', remember: true, provider: null, via: 'code', user: { id: ada.id } });
      expect(await challenge.execute({ pending, answer: { kind: 'code', code } })).toEqual({ kind: 'invalid' });
    });

    it('refuses the code that confirmed the setup, and an earlier code once a later one was used', async () => {
      const { secret } = await turnOn();
      const pending = await pendingAfterPassword();
      const confirming = appCode(secret, clock.now());
      expect(await challenge.execute({ pending, answer: { kind: 'code', code: confirming } })).toEqual({ kind: 'invalid' });

      clock.advance(60_000);
      const now = clock.now();
      const next = appCode(secret, new Date(now.getTime() + 30_000)); // a phone running a little fast
      const current = appCode(secret, now);
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'code', code: next } })).toMatchObject({ kind: 'passed' });
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'code', code: current } })).toEqual({ kind: 'invalid' });
    });

    it('accepts a code one step early or late, not two', async () => {
      const { secret } = await turnOn();
      clock.advance(5 * 30_000);
      const now = clock.now().getTime();
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'code', code: appCode(secret, new Date(now - 60_000)) } })).toEqual({ kind: 'invalid' });
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'code', code: appCode(secret, new Date(now - 30_000)) } })).toMatchObject({ kind: 'passed' });
    });

    it('takes each recovery code once, however it is typed, and says how many are left', async () => {
      const { recoveryCodes } = await turnOn();
      const [first = '', second = ''] = recoveryCodes;
      const typed = ` ${first.toUpperCase().replace('-', ' ')} `;
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: typed } })).toMatchObject({
        kind: 'passed',
        via: 'recovery-code',
      });
      expect(events.at(-1)).toEqual(new RecoveryCodeUsed(ada.id, 7));
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: first } })).toEqual({ kind: 'invalid' });
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: 'abcde-fghjk' } })).toEqual({ kind: 'invalid' });
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: second } })).toMatchObject({ kind: 'passed' });
      expect(await show.execute({ userId: ada.id })).toMatchObject({ kind: 'on', recoveryCodesLeft: 6 });
    });

    it('locks the user after five wrong answers in a minute, whatever the answer, until the minute ends', async () => {
      const { secret, recoveryCodes } = await turnOn();
      clock.advance(30_000);
      const pending = await pendingAfterPassword();
      for (let i = 0; i < 5; i += 1) {
        expect(await challenge.execute({ pending, answer: { kind: 'code', code: wrongCode(secret, clock.now()) } })).toEqual({ kind: 'invalid' });
      }
      const locked = await challenge.execute({ pending, answer: { kind: 'code', code: appCode(secret, clock.now()) } });
      expect(locked).toEqual({ kind: 'locked', retryAfterSeconds: 20 });
      expect(await challenge.execute({ pending, answer: { kind: 'recovery-code', code: recoveryCodes[0] ?? '' } })).toMatchObject({ kind: 'locked' });
      clock.set('2026-03-01T12:01:00Z');
      expect(await challenge.execute({ pending, answer: { kind: 'code', code: appCode(secret, clock.now()) } })).toMatchObject({ kind: 'passed' });
    });

    it('sends the visitor back to log in: no pending login, a damaged one, one past ten minutes, sessions ended, user gone', async () => {
      const { secret } = await turnOn();
      const answer = () => ({ kind: 'code', code: appCode(secret, clock.now()) }) as const;
      expect(await challenge.execute({ pending: undefined, answer: answer() })).toEqual({ kind: 'expired' });
      const pending = await pendingAfterPassword();
      expect(await challenge.execute({ pending: { ...pending, userId: 'x' }, answer: answer() })).toEqual({ kind: 'expired' });

      clock.advance(PENDING_LOGIN_TTL_MINUTES * 60_000);
      expect(await challenge.execute({ pending, answer: answer() })).toEqual({ kind: 'expired' });

      const fresh = await pendingAfterPassword();
      await users.raiseSessionEpoch(ada.id, clock.now());
      expect(await challenge.execute({ pending: fresh, answer: answer() })).toEqual({ kind: 'expired' });

      ada = (await users.findById(ada.id)) as User;
      const last = await pendingAfterPassword();
      await users.remove(ada.id);
      expect(await challenge.execute({ pending: last, answer: answer() })).toEqual({ kind: 'expired' });
    });

    it('after an APP_KEY change refuses app codes (and logs why) but still takes recovery codes', async () => {
      const { secret, recoveryCodes } = await turnOn();
      wire(2);
      clock.advance(30_000);
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'code', code: appCode(secret, clock.now()) } })).toEqual({ kind: 'invalid' });
      expect(logLines.map((line) => line.level)).toEqual(['warn']);
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: recoveryCodes[3] ?? '' } })).toMatchObject({ kind: 'passed' });
    });
  });

  describe('recovery codes and turning off', () => {
    it('makes a new set of codes only while on; the old ones stop working', async () => {
      expect(await regenerate.execute({ userId: ada.id })).toEqual({ kind: 'not-enabled' });
      const { recoveryCodes } = await turnOn();
      const renewed = await regenerate.execute({ userId: ada.id });
      if (renewed.kind !== 'regenerated') throw new Error(renewed.kind);
      expect(renewed.recoveryCodes).toHaveLength(8);
      expect(events.at(-1)).toEqual(new RecoveryCodesRegenerated(ada.id));
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: recoveryCodes[0] ?? '' } })).toEqual({ kind: 'invalid' });
      expect(await challenge.execute({ pending: await pendingAfterPassword(), answer: { kind: 'recovery-code', code: renewed.recoveryCodes[0] ?? '' } })).toMatchObject({ kind: 'passed' });
    });

    it('turns off: the password alone logs in again, and a login left waiting starts over', async () => {
      const { secret, recoveryCodes } = await turnOn();
      const waiting = await pendingAfterPassword();
      expect(await disable.execute({ userId: ada.id })).toEqual({ kind: 'disabled' });
      expect(events.at(-1)).toEqual(new TwoFactorDisabled(ada.id));
      expect(await show.execute({ userId: ada.id })).toEqual({ kind: 'off' });
      expect(await begin.execute({ user: ada, remember: false, provider: null })).toEqual({ kind: 'not-required' });
      clock.advance(30_000);
      expect(await challenge.execute({ pending: waiting, answer: { kind: 'code', code: appCode(secret, clock.now()) } })).toEqual({ kind: 'expired' });
      expect(await challenge.execute({ pending: waiting, answer: { kind: 'recovery-code', code: recoveryCodes[0] ?? '' } })).toEqual({ kind: 'expired' });
      // Idempotent, and an abandoned setup is cleared without telling listeners.
      expect(await disable.execute({ userId: ada.id })).toEqual({ kind: 'disabled' });
      await enable.execute({ userId: ada.id });
      const before = events.length;
      expect(await disable.execute({ userId: ada.id })).toEqual({ kind: 'disabled' });
      expect(events).toHaveLength(before);
      expect(await show.execute({ userId: ada.id })).toEqual({ kind: 'off' });
    });
  });
});
