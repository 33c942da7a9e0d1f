import { negotiateLocale } from '../../../domain/lang/negotiate-locale.js';
import type { Translator } from '../../../ports/translator.js';
import type { MultipartError } from './multipart.js';

/**
 * The sentence of a refused upload in the visitor's language, picked by Accept-Language (no
 * session is open yet); the parser's English without a translator. For every transport.
 */
export function uploadRefusal(error: MultipartError, translator: Translator | undefined, acceptLanguage: string | null): string {
  if (translator === undefined) return error.message;
  const locale = negotiateLocale({ session: null, acceptLanguage, available: translator.locales, fallback: translator.fallback });
  return translator.lang(locale).t(`uploads.${error.reason.replaceAll('-', '_')}`);
}
