/** A browser sends one name a few times at most (one per path or parent domain). */
const MAX_VALUES_PER_NAME = 4;

/**
 * The values a request's Cookie header holds for `name`, in the order sent. Read from the raw
 * header because browsers produce what stricter parsers lose: the same name twice (a cookie of
 * a parent domain or another path) and a nameless cookie in front (`document.cookie = 'abc'`
 * is sent as `abc; theme=dark`). Double quotes around a value are removed.
 */
export function cookieValues(header: string | string[] | undefined, name: string): string[] {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  const values: string[] = [];
  for (const pair of text.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    values.push(value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
    if (values.length === MAX_VALUES_PER_NAME) break;
  }
  return values;
}
