import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lang } from '../../domain/lang/lang.js';
import type { Catalog } from '../../domain/lang/lang.js';
import type { Translator } from '../../ports/translator.js';
import { FrameworkError } from '../../domain/shared/errors.js';

/**
 * Translations from JSON files, Laravel's flat style (`{"validation.required": "The
 * :attribute field is required."}`): the framework's folder, then the app's over it, key by
 * key, so an app changes one sentence without copying the file. Read once at start: texts
 * are part of the release, not data.
 */
export class JsonTranslator implements Translator {
  readonly locales: readonly string[];
  private readonly catalogs = new Map<string, Catalog[]>();
  private readonly langs = new Map<string, Lang>();

  /** `folders` in order of precedence: the app's `resources/lang` first, the framework's last. */
  constructor(
    folders: readonly string[],
    readonly fallback: string,
  ) {
    const byLocale = new Map<string, Catalog[]>();
    for (const folder of folders) {
      if (!existsSync(folder)) continue;
      for (const entry of readdirSync(folder).sort()) {
        if (!entry.endsWith('.json')) continue;
        const locale = entry.slice(0, -'.json'.length);
        const list = byLocale.get(locale) ?? [];
        list.push(readCatalog(join(folder, entry)));
        byLocale.set(locale, list);
      }
    }
    this.catalogs = byLocale;
    this.locales = [...byLocale.keys()];
  }

  lang(locale: string): Lang {
    const known = this.catalogs.has(locale) ? locale : this.fallback;
    let lang = this.langs.get(known);
    if (lang === undefined) {
      const own = this.catalogs.get(known) ?? [];
      const fallback = known === this.fallback ? [] : (this.catalogs.get(this.fallback) ?? []);
      lang = new Lang(known, [...own, ...fallback]);
      this.langs.set(known, lang);
    }
    return lang;
  }
}

/** A catalog file: an object of strings (a broken file fails the start, naming the file). */
export function readCatalog(path: string): Catalog {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new FrameworkError('lang.bad-file', `The translation file ${path} is no valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new FrameworkError('lang.bad-file', `The translation file ${path} must hold one object`);
  for (const [key, text] of Object.entries(parsed)) {
    if (typeof text !== 'string') throw new FrameworkError('lang.bad-file', `The translation file ${path} has a text that is no string at ${JSON.stringify(key)}`);
  }
  return parsed as Catalog;
}
