/**
 * One language's texts for one request: `lang.t('auth.failed')`, `lang.choice('cart.items',
 * 3, { count: 3 })`. Texts are flat keys (`validation.required`) with `:name` placeholders,
 * Laravel's style. Plural forms are keys of their own, one per plural category of the
 * language (`cart.items.one`, `cart.items.other`), chosen by `Intl.PluralRules`, so Polish
 * (`few`, `many`) or Arabic work without a special syntax. A key no catalog knows comes back
 * as itself, so a key doubles as literal text (`rule(false, 'Pick a weekday.')`).
 */
export type Catalog = Readonly<Record<string, string>>;
export type Replacements = Readonly<Record<string, string | number>>;

export class Lang {
  private readonly plurals: Intl.PluralRules;

  /** `catalogs` are searched in order: the app's texts for the locale first, the fallback last. */
  constructor(
    readonly locale: string,
    private readonly catalogs: readonly Catalog[],
  ) {
    this.plurals = new Intl.PluralRules(safeLocale(locale));
  }

  has(key: string): boolean {
    return this.lookup(key) !== undefined;
  }

  t(key: string, params: Replacements = {}): string {
    return interpolate(this.lookup(key) ?? key, params);
  }

  /** The plural form for `count` (`key.one`, `key.other`…), else `key` itself; `:count` is filled. */
  choice(key: string, count: number, params: Replacements = {}): string {
    const category = Number.isFinite(count) ? this.plurals.select(count) : 'other';
    const text = this.lookup(`${key}.${category}`) ?? this.lookup(`${key}.other`) ?? this.lookup(key) ?? key;
    return interpolate(text, { count, ...params });
  }

  /** The text of a key, or undefined (unlike `t`, which falls back to the key). */
  lookup(key: string): string | undefined {
    for (const catalog of this.catalogs) {
      const text = Object.hasOwn(catalog, key) ? catalog[key] : undefined;
      if (text !== undefined) return text;
    }
    return undefined;
  }
}

/** `Intl` throws on a malformed tag; the negotiated locale is checked, but a Lang is built anywhere. */
function safeLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * Fills `:name` placeholders, longest names first so `:max` does not eat `:maximum`.
 * `:Name` fills with a capital first letter (a label at the start of a sentence).
 */
export function interpolate(text: string, params: Replacements): string {
  if (!text.includes(':')) return text;
  const names = Object.keys(params).sort((a, b) => b.length - a.length);
  let result = text;
  for (const name of names) {
    const value = String(params[name]);
    const capital = name.charAt(0).toUpperCase() + name.slice(1);
    result = result.replaceAll(`:${capital}`, value.charAt(0).toUpperCase() + value.slice(1)).replaceAll(`:${name}`, value);
  }
  return result;
}
