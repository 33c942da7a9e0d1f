/**
 * The locale a filter formats with: the app's, when the runtime knows it. An unknown or
 * malformed locale (a typo in APP_LOCALE) falls back to English rather than failing every page.
 */
export function safeLocale(locale: string | undefined): string {
  if (locale === undefined || locale === '') return 'en';
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}
