/**
 * `t()` in templates: `{{ t('auth.failed') }}`, `{{ t('validation.required', { attribute: 'name' }) }}`,
 * and a plural with a `count` (`{{ t('cart.items', { count: n }) }}` picks `cart.items.one` or
 * `.other`). The language is the render's `app.locale` (the request's locale), else the
 * translator's default; mails rendered outside a request use the default.
 */
import type { Environment } from 'nunjucks';
import type { Translator } from '../../../ports/translator.js';

interface GlobalThis {
  lookup(name: string): unknown;
}

export function registerTranslations(env: Environment, translator: Translator): void {
  env.addGlobal('t', function (this: GlobalThis, key: unknown, params?: unknown) {
    const app = this.lookup('app');
    const locale = typeof app === 'object' && app !== null ? (app as Record<string, unknown>)['locale'] : undefined;
    const lang = translator.lang(typeof locale === 'string' ? locale : translator.fallback);
    const replacements = textParams(params);
    const count = replacements['count'];
    return typeof count === 'number' ? lang.choice(String(key), count, replacements) : lang.t(String(key), replacements);
  });
}

/** Only text and numbers fill placeholders (nunjucks adds a `__keywords` marker to named arguments). */
function textParams(params: unknown): Record<string, string | number> {
  if (typeof params !== 'object' || params === null) return {};
  const result: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === '__keywords') continue;
    if (typeof value === 'string' || typeof value === 'number') result[name] = value;
  }
  return result;
}
