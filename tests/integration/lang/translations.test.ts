import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonTranslator, readCatalog } from '../../../adapters/lang/json-translator.js';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { MESSAGES } from '../../../adapters/http/auth/auth-messages.js';
import { ACCOUNT_MESSAGES } from '../../../adapters/http/auth/account-routes.js';
import { NEEDS_SESSION_KEY, noticeText, OAUTH_NOTICE_KEYS } from '../../../adapters/http/oauth/oauth-messages.js';
import type { NoticeCode } from '../../../domain/oauth/errors.js';

const FRAMEWORK_LANG = join(FRAMEWORK_TEMPLATES, 'lang');

describe('the framework’s shipped languages', () => {
  const files = readdirSync(FRAMEWORK_LANG).filter((file) => file.endsWith('.json'));

  it('ship English and German', () => {
    expect(files).toEqual(expect.arrayContaining(['en.json', 'de.json']));
  });

  it('every shipped language has every key another one has', () => {
    const keys = new Map(files.map((file) => [file, new Set(Object.keys(readCatalog(join(FRAMEWORK_LANG, file))))]));
    const all = new Set([...keys.values()].flatMap((set) => [...set]));
    for (const [file, own] of keys) {
      expect([...all].filter((key) => !own.has(key)), `${file} lacks`).toEqual([]);
    }
  });

  it('every sentence the Auth and OAuth routes flash or toast is a key of every shipped language', () => {
    const translator = new JsonTranslator([FRAMEWORK_LANG], 'en');
    const keys = [...Object.values(MESSAGES), ...Object.values(ACCOUNT_MESSAGES), ...Object.values(OAUTH_NOTICE_KEYS), NEEDS_SESSION_KEY];
    for (const file of files) {
      // Each language's own file, without the fallback, so a key only English has is caught.
      const own = readCatalog(join(FRAMEWORK_LANG, file));
      const missing = keys.filter((key) => !Object.hasOwn(own, key) && !Object.hasOwn(own, `${key}.other`));
      expect(missing, `${file} lacks`).toEqual([]);
    }
    // The social-login notices read in English as the spec's tables word them: the domain says
    // only which notice (a code), so the words are pinned here, where a change would show.
    const english: Record<NoticeCode, string> = {
      'try-again': 'Signing in with the provider did not work. Please try again.',
      'unverified-email': 'Your account at the provider has no verified email address. Verify it there, then try again.',
      'email-owner-unverified':
        'An account already uses this email address, but the address is not verified. Log in with your password, then link the provider from your account page.',
      'registration-closed': 'No account uses this email address.',
      'linked-to-another-user': 'This provider account is already linked to another user.',
      'provider-already-linked': 'Another account at this provider is already linked to this user.',
      'own-email-unverified': 'Verify your email address before linking an account.',
      'not-linked-to-you': 'This provider account is not linked to yours.',
      'already-logged-in': 'You are already logged in.',
      'not-linked': 'This provider is not linked to your account.',
      'only-way-to-log-in': 'This is your only way to log in. Set a password or link another account first.',
      linked: 'The account is linked.',
      'already-linked': 'This account is already linked to yours.',
      unlinked: 'The account is unlinked.',
    };
    for (const code of Object.keys(english) as NoticeCode[]) expect(noticeText(translator.lang('en'), code), code).toBe(english[code]);
    expect(translator.lang('de').choice(MESSAGES.locked, 1, { seconds: 1 })).toBe('Zu viele Anmeldeversuche. Bitte versuche es in 1 Sekunde erneut.');
  });

  it('no text is left untranslated (a German text equal to the English one is a slip, unless the word is the same)', () => {
    // Words German spells the same: the sink's 'Warm' theme and its 'Details' area.
    const sameInBoth = new Set(['auth.field.name', 'ui.sink.theme.warm', 'ui.sink.area.details']);
    const en = readCatalog(join(FRAMEWORK_LANG, 'en.json'));
    const de = readCatalog(join(FRAMEWORK_LANG, 'de.json'));
    expect(Object.keys(en).filter((key) => !sameInBoth.has(key) && en[key] === de[key] && /[a-z]{3}/u.test(en[key] ?? ''))).toEqual([]);
  });
});

describe('JsonTranslator', () => {
  function appWith(files: Record<string, Record<string, unknown>>): string {
    const root = mkdtempSync(join(tmpdir(), 'fw-lang-'));
    mkdirSync(join(root, 'lang'));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(root, 'lang', name), JSON.stringify(content));
    return join(root, 'lang');
  }

  it('puts the app’s resources/lang over the framework’s, key by key, and adds the app’s languages', () => {
    const app = appWith({ 'de.json': { 'validation.required': ':attribute fehlt.' }, 'fr.json': { 'validation.required': 'Le champ :attribute est obligatoire.' } });
    const translator = new JsonTranslator([app, FRAMEWORK_LANG], 'en');
    expect(translator.locales).toEqual(expect.arrayContaining(['en', 'de', 'fr']));
    expect(translator.lang('de').t('validation.required', { attribute: 'Name' })).toBe('Name fehlt.');
    expect(translator.lang('de').t('validation.email', { attribute: 'E-Mail' })).toBe('Das Feld E-Mail muss eine gültige E-Mail-Adresse sein.');
    // French has one key; the rest fall back to APP_LOCALE's texts.
    expect(translator.lang('fr').t('validation.email', { attribute: 'email' })).toBe('The email field must be a valid email address.');
  });

  it('an unknown locale gets the fallback language', () => {
    expect(new JsonTranslator([FRAMEWORK_LANG], 'de').lang('xx').locale).toBe('de');
  });

  it('a broken file fails the start, naming the file', () => {
    const app = appWith({ 'en.json': { key: 42 } });
    expect(() => new JsonTranslator([app], 'en')).toThrow(/en\.json has a text that is no string/u);
  });
});
