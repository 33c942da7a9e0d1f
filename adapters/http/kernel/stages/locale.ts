import type { Lang } from '../../../../domain/lang/lang.js';
import { negotiateLocale, savedLocaleAmong } from '../../../../domain/lang/negotiate-locale.js';
import type { Translator } from '../../../../ports/translator.js';
import { headerText } from '../context.js';
import type { Stage } from '../pipeline.js';
import { Header, withExtras } from '../replies.js';

/**
 * Stage 5, 'locale' (after the session, before the user, CSRF and views): the request's
 * language is the session's `locale` as it is when this stage runs, else the best of
 * `Accept-Language` among the app's languages, else APP_LOCALE. So every layer, the handler
 * and the page it renders speak one language, even when the handler saves a new choice (that
 * one counts from the next request, the usual language switcher's redirect).
 *
 * Cheap by design: the stage reads the session's value (a map lookup) and leaves the header's
 * parsing to the first `ctx.lang`/`ctx.locale`, which answers that never speak (a redirect, a
 * download, most JSON) do not make. An answer whose language came from the header gets
 * `Vary: Accept-Language`, and one whose language came from the session `Vary: Cookie`, so a
 * shared cache never hands one visitor's language to another.
 */
export function localeStage(translator: Translator): Stage {
  const fromAcceptLanguage = headerNegotiation(translator.locales, translator.fallback);
  // Not an async function: one `then` for the way out instead of an async wrapper and an await.
  return (ctx, next) => {
    const saved = savedLocaleAmong(ctx.session.get('locale'), translator.locales);
    // The request header the answer's language came from, once something spoke.
    const chosen: { by: 'Accept-Language' | 'Cookie' | null } = { by: null };
    ctx.chooseLanguage((): Lang => {
      if (saved !== undefined) {
        chosen.by = 'Cookie';
        return translator.lang(saved);
      }
      chosen.by = 'Accept-Language';
      return translator.lang(fromAcceptLanguage(headerText(ctx.headers['accept-language'])));
    });
    return next().then((reply) => (chosen.by === null ? reply : withExtras(reply, Header.make('vary', chosen.by))));
  };
}

/** Headers longer than this are negotiated every time rather than remembered. */
const MEMO_HEADER_LENGTH = 256;
/** Distinct headers remembered; a client sending a new one each time only empties the memo. */
const MEMO_ENTRIES = 512;

/**
 * `Accept-Language` to one of the app's languages, remembered by the header's text: parsing one
 * costs about as much as the rest of the stage's work together (bench figures in
 * docs/decisions.md), and a site's visitors send few distinct headers.
 */
export function headerNegotiation(available: readonly string[], fallback: string): (header: string | undefined) => string {
  const memo = new Map<string, string>();
  return (header) => {
    const text = header ?? '';
    const known = memo.get(text);
    if (known !== undefined) return known;
    const locale = negotiateLocale({ session: null, acceptLanguage: text, available, fallback });
    if (text.length <= MEMO_HEADER_LENGTH) {
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(text, locale);
    }
    return locale;
  };
}
