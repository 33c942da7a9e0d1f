import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonTranslator, readCatalog } from '../../../adapters/lang/json-translator.js';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { MESSAGES } from '../../../adapters/http/auth/auth-messages.js';
import { ACCOUNT_MESSAGES } from '../../../adapters/http/auth/account-routes.js';
import { NEEDS_SESSION_KEY, OAUTH_MESSAGE_KEYS } from '../../../adapters/http/oauth/oauth-messages.js';
import { SIGN_IN_MESSAGES, SUCCESS_MESSAGES, TRY_AGAIN, UNLINK_MESSAGES } from '../../../domain/oauth/errors.js';

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
    const keys = [...Object.values(MESSAGES), ...Object.values(ACCOUNT_MESSAGES), ...OAUTH_MESSAGE_KEYS.values(), NEEDS_SESSION_KEY];
    for (const file of files) {
      // Each language's own file, without the fallback, so a key only English has is caught.
      const own = readCatalog(join(FRAMEWORK_LANG, file));
      const missing = keys.filter((key) => !Object.hasOwn(own, key) && !Object.hasOwn(own, `${key}.other`));
      expect(missing, `${file} lacks`).toEqual([]);
    }
    // Every sentence of the social-login tables has its key.
    const sentences = [TRY_AGAIN, ...Object.values(SIGN_IN_MESSAGES), ...Object.values(UNLINK_MESSAGES), ...Object.values(SUCCESS_MESSAGES)];
    expect(sentences.filter((sentence) => !OAUTH_MESSAGE_KEYS.has(sentence))).toEqual([]);
    // English says what the domain says.
    for (const [sentence, key] of OAUTH_MESSAGE_KEYS) expect(translator.lang('en').t(key)).toBe(sentence);
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
