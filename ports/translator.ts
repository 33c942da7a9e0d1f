import type { Lang } from '../domain/lang/lang.js';

/**
 * The app's languages: the app's `resources/lang/<locale>.json` over the framework's own
 * (`templates/lang/`), each falling back to the default locale's texts for a missing key.
 */
export interface Translator {
  /** The locales with a translation file, for the locale stage's negotiation. */
  readonly locales: readonly string[];
  /** APP_LOCALE. */
  readonly fallback: string;
  lang(locale: string): Lang;
}
