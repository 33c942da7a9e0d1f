import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { registerTranslations } from '../../../../adapters/views/nunjucks/register-translations.js';
import { Lang } from '../../../../domain/lang/lang.js';
import type { Translator } from '../../../../ports/translator.js';
import { frameworkTranslator } from '../../../support/lang.js';

describe('t() in templates', () => {
  const env = new nunjucks.Environment(null, { autoescape: true });
  registerTranslations(env, frameworkTranslator);

  it('speaks the render’s app.locale', () => {
    const template = "{{ t('validation.required', { attribute: 'Name' }) }}";
    expect(env.renderString(template, { app: { locale: 'de' } })).toBe('Das Feld Name ist erforderlich.');
    expect(env.renderString(template, { app: { locale: 'en' } })).toBe('The Name field is required.');
  });

  it('falls back to the default language without app.locale (a mail), and to the key for unknown text', () => {
    expect(env.renderString("{{ t('validation.accepted', { attribute: 'terms' }) }}", {})).toBe('The terms field must be accepted.');
    expect(env.renderString("{{ t('Just text') }}", {})).toBe('Just text');
  });

  it('picks the plural form with a count', () => {
    const translator: Translator = {
      locales: ['en'],
      fallback: 'en',
      lang: () => new Lang('en', [{ 'cart.items.one': ':count item', 'cart.items.other': ':count items' }]),
    };
    const own = new nunjucks.Environment(null, { autoescape: true });
    registerTranslations(own, translator);
    expect(own.renderString("{{ t('cart.items', { count: 1 }) }} / {{ t('cart.items', { count: 4 }) }}", {})).toBe('1 item / 4 items');
  });

  it('escapes what a translation puts in (autoescape)', () => {
    expect(env.renderString("{{ t('validation.required', { attribute: '<b>' }) }}", { app: { locale: 'en' } })).toBe('The &lt;b&gt; field is required.');
  });
});
