/**
 * The locale stage's choice, as a pure function: the locale saved in the session (a language
 * switcher), else the best of the `Accept-Language` header among the app's languages, else
 * APP_LOCALE. Matching ignores case; `de-AT` in the header matches an app language `de`,
 * and an app language `pt-BR` matches a header's `pt`.
 */
export interface LocaleChoice {
  /** The locale saved in the session; anything but one of `available` is ignored. */
  session: unknown;
  acceptLanguage: string | null | undefined;
  /** The app's languages (those with a translation file). */
  available: readonly string[];
  /** APP_LOCALE. */
  fallback: string;
}

export function negotiateLocale(choice: LocaleChoice): string {
  const saved = savedLocaleAmong(choice.session, choice.available);
  if (saved !== undefined) return saved;
  const find = (tag: string): string | undefined => choice.available.find((locale) => locale.toLowerCase() === tag.toLowerCase());
  for (const tag of parseAcceptLanguage(choice.acceptLanguage ?? '')) {
    const exact = find(tag);
    if (exact !== undefined) return exact;
    const base = tag.split('-')[0] ?? tag;
    const byBase = find(base) ?? choice.available.find((locale) => locale.toLowerCase().split('-')[0] === base.toLowerCase());
    if (byBase !== undefined) return byBase;
  }
  return choice.fallback;
}

/** The session's saved locale when it is one of the app's languages (as the app spells it); a stale or forged one is ignored. */
export function savedLocaleAmong(saved: unknown, available: readonly string[]): string | undefined {
  if (typeof saved !== 'string') return undefined;
  return available.find((locale) => locale.toLowerCase() === saved.toLowerCase());
}

/** The header's language tags, best first (by `q`, then by order); `*` and `q=0` are left out. */
export function parseAcceptLanguage(header: string): string[] {
  const entries: { tag: string; q: number; order: number }[] = [];
  // A header is short; a huge one is cut rather than parsed (it comes from the client).
  header
    .slice(0, 4096)
    .split(',')
    .slice(0, 50)
    .forEach((part, order) => {
      const [rawTag = '', ...params] = part.trim().split(';');
      const tag = rawTag.trim();
      if (tag === '' || tag === '*' || !isLanguageTag(tag)) return;
      let q = 1;
      for (const param of params) {
        const [name, value] = param.trim().split('=');
        if (name?.trim() === 'q') q = Number(value);
      }
      if (Number.isFinite(q) && q > 0 && q <= 1) entries.push({ tag, q, order });
    });
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.tag);
}

function isLanguageTag(tag: string): boolean {
  if (tag.length > 35) return false;
  return tag.split('-').every((part) => part.length >= 1 && part.length <= 8 && [...part].every((c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')));
}
