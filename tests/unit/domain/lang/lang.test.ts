import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lang, interpolate } from '../../../../domain/lang/lang.js';
import { negotiateLocale, parseAcceptLanguage } from '../../../../domain/lang/negotiate-locale.js';

describe('Lang', () => {
  const en = new Lang('en', [{ greet: 'Hello, :name!', 'cart.items.one': ':count item', 'cart.items.other': ':count items' }]);
  const pl = new Lang('pl', [{ 'files.one': ':count plik', 'files.few': ':count pliki', 'files.many': ':count plików', 'files.other': ':count pliku' }]);

  it('t fills placeholders and falls back to the key itself', () => {
    expect(en.t('greet', { name: 'Ada' })).toBe('Hello, Ada!');
    expect(en.t('Plain text, no key.')).toBe('Plain text, no key.');
    expect(en.locale).toBe('en');
  });

  it('choice picks the plural form by the language’s rules (Intl.PluralRules)', () => {
    expect(en.choice('cart.items', 1)).toBe('1 item');
    expect(en.choice('cart.items', 3)).toBe('3 items');
    expect([1, 3, 5, 22].map((n) => pl.choice('files', n))).toEqual(['1 plik', '3 pliki', '5 plików', '22 pliki']);
  });

  it('earlier catalogs win key by key (the app over the framework)', () => {
    const lang = new Lang('en', [{ a: 'app' }, { a: 'framework', b: 'framework b' }]);
    expect([lang.t('a'), lang.t('b')]).toEqual(['app', 'framework b']);
  });

  it('interpolate: longest names first, :Name capitalised', () => {
    expect(interpolate(':max of :maximum', { max: 1, maximum: 2 })).toBe('1 of 2');
    expect(interpolate(':Attribute is taken.', { attribute: 'email' })).toBe('Email is taken.');
  });

  it('a malformed locale still builds a Lang', () => {
    expect(new Lang('not a locale!', []).choice('x', 2)).toBe('x');
  });
});

describe('locale negotiation: session, then Accept-Language, then APP_LOCALE', () => {
  const available = ['en', 'de', 'pt-BR'];
  it.each([
    ['the session wins', { session: 'de', acceptLanguage: 'en' }, 'de'],
    ['a session locale the app lacks is ignored', { session: 'fr', acceptLanguage: 'de' }, 'de'],
    ['the header by quality', { session: null, acceptLanguage: 'fr;q=0.9, de;q=0.8, en;q=0.1' }, 'de'],
    ['a region matches its base language', { session: null, acceptLanguage: 'de-AT' }, 'de'],
    ['a base language matches a regional app language', { session: null, acceptLanguage: 'pt' }, 'pt-BR'],
    ['case is ignored', { session: 'DE', acceptLanguage: '' }, 'de'],
    ['q=0 means no', { session: undefined, acceptLanguage: 'de;q=0' }, 'en'],
    ['nothing usable: APP_LOCALE', { session: null, acceptLanguage: '*' }, 'en'],
  ])('%s', (_name, given, expected) => {
    expect(negotiateLocale({ ...given, available, fallback: 'en' })).toBe(expected);
  });

  it('parses any header without throwing', () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (header) => Array.isArray(parseAcceptLanguage(header))));
    expect(parseAcceptLanguage('en-US,en;q=0.9,de;q=0.8')).toEqual(['en-US', 'en', 'de']);
  });
});
