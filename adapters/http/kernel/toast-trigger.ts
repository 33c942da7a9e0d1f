import { HxHeader } from './replies.js';
import type { Extra, Toast } from './replies.js';

/** The event fw.js listens for: `HX-Trigger: {"fw:toast": {"toasts": [{level, message}]}}`. */
export const TOAST_EVENT = 'fw:toast';

/**
 * Toasts of a partial-update answer that stays on the page: they go out in `HX-Trigger`, and
 * fw.js shows them in the toasts() region (a fragment has no toasts() of its own). An
 * `HX-Trigger` the handler set already is kept: its events are merged into the same JSON.
 */
export function toastTrigger(extras: readonly Extra[], toasts: readonly Toast[]): Extra[] {
  const events: Record<string, unknown> = {};
  const others: Extra[] = [];
  for (const extra of extras) {
    if (extra instanceof HxHeader && extra.name === 'HX-Trigger') Object.assign(events, triggerEvents(extra.value));
    else others.push(extra);
  }
  events[TOAST_EVENT] = { toasts: toasts.map((toast) => ({ level: toast.level, message: toast.message })) };
  return [...others, HxHeader.trigger(events)];
}

/** `HX-Trigger` as events: JSON (`{"saved": {...}}`) or a comma-separated list of names. */
function triggerEvents(value: string): Record<string, unknown> {
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Not JSON after all: read it as names.
    }
  }
  const events: Record<string, unknown> = {};
  for (const name of text.split(',')) if (name.trim() !== '') events[name.trim()] = null;
  return events;
}
