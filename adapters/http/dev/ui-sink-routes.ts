/**
 * The UI kit's kitchen sink, `/_fw/ui`: every kit macro in every state, in each theme, for the
 * people building and checking the kit. Only with APP_DEBUG on and APP_ENV=local; anywhere else
 * it answers 404, as if it did not exist.
 *
 * The page (`fw/dev/ui.html`) includes each area's section `fw/dev/ui/<area>.html`. So sections
 * can show filled and failed fields without a form round trip, the page's `old(name)` answers a
 * sample value for names starting `filled_` (the field's own value when it passes one), and `error(name)` answers 'This field is
 * required.' (translated) for names starting `invalid_`; other names behave as everywhere.
 */
import type { Handler } from '../kernel/request-context.js';
import { abort } from '../kernel/http-error.js';
import { View } from '../kernel/replies.js';
import { Routes } from '../../../domain/http/routing/routes.js';

export const UI_SINK_PATH = '/_fw/ui';
export const UI_THEMES = ['editorial', 'warm', 'classic'] as const;
export const UI_SCHEMES = ['auto', 'light', 'dark'] as const;
export const UI_SINK_AREAS = ['frame', 'fields', 'controls', 'actions', 'details', 'globals'] as const;

/** Whether the sink is served: only on a developer's machine with debugging on. */
export interface UiSinkSwitch {
  enabled(): boolean;
  /** The kit's stylesheets (`fw/ui/theme.css` first), linked by the page when the layout has no `fw_ui()`. */
  stylesheets?(): readonly string[];
}

/**
 * The value `old(name)` gives a `filled_…` field, by what its name says it holds: a list for
 * many-valued fields (tags, multiple choices), a date, a colour, a number, an address, a checked
 * box, or else a short text.
 */
export function sampleValue(name: string): unknown {
  // `filled_items[0][qty]`: the innermost part says what the field holds.
  const rest = /\[([^\]]*)\]$/u.exec(name)?.[1] ?? name.slice('filled_'.length);
  if (/tags|multiple|list|choices/u.test(rest)) return ['tea', 'cups'];
  if (/key_value|pairs/u.test(rest)) return { colour: 'green', size: 'large' };
  if (/datetime/u.test(rest)) return '2026-03-14T09:30';
  if (/date/u.test(rest)) return '2026-03-14';
  if (/colou?r/u.test(rest)) return '#1f4fb8';
  if (/email/u.test(rest)) return 'ada@example.com';
  if (/url|website/u.test(rest)) return 'https://example.com';
  if (/number|amount|quantity|qty|price|count|age|year/u.test(rest)) return '42';
  if (/checkbox|switch|agree|toggle|check/u.test(rest)) return '1';
  if (/textarea|notes|body|description/u.test(rest)) return 'A longer text,\nwritten over two lines.';
  return 'Sample text';
}

function choice<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

export function uiSinkRoutes(sink: UiSinkSwitch): Routes<Handler> {
  const page: Handler = (ctx) => {
    if (!sink.enabled()) abort(404);
    const theme = choice(ctx.query['theme'], UI_THEMES, 'editorial');
    const scheme = choice(ctx.query['scheme'], UI_SCHEMES, 'auto');
    const session = ctx.session;
    return View.make('fw/dev/ui.html', {
      fw_theme: theme === 'editorial' ? '' : theme,
      fw_scheme: scheme === 'auto' ? '' : scheme,
      sink: { stylesheets: sink.stylesheets?.() ?? ['fw/ui/theme.css'], theme, scheme, themes: UI_THEMES, schemes: UI_SCHEMES, areas: UI_SINK_AREAS, path: UI_SINK_PATH },
      old: (field: unknown, fallback: unknown = '') => {
        const name = String(field);
        if (!name.startsWith('filled_')) return session.old(name) ?? fallback;
        // A field that brings its own value (the section's `value=`) shows that one: it fits the field's type.
        return fallback === '' || fallback === null || fallback === undefined ? sampleValue(name) : fallback;
      },
      error: (field: unknown, bag: unknown = 'default') => {
        const name = String(field);
        if (name.startsWith('invalid_')) return ctx.lang.t('ui.sink.required');
        return session.errors(typeof bag === 'string' ? bag : 'default')[name]?.[0] ?? null;
      },
    });
  };
  return new Routes<Handler>().get(UI_SINK_PATH, page).name('fw.ui');
}
