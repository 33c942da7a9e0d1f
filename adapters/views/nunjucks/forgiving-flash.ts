/**
 * The spec lets templates print `flash.<anything>` even with debug on, where printing an
 * undefined value is an error: a flash message is absent on most requests, and
 * `{{ flash.success }}` in a layout must not break every page. Missing keys read as `null`,
 * which prints as nothing and is false in `{% if %}`.
 */
export function forgivingFlash(flash: unknown): object {
  const target = typeof flash === 'object' && flash !== null ? flash : {};
  return new Proxy(target, FORGIVING);
}

/** One handler for every render's proxy: it keeps no state. */
const FORGIVING: ProxyHandler<object> = {
  get(object, key) {
    if (typeof key === 'string' && !(key in object)) return null;
    return Reflect.get(object, key) as unknown;
  },
};
