import { RoutingError } from './routing-error.js';

/**
 * Route names are dotted words (`products.show`, `admin.users.index`). `*` is kept out of
 * them because it is the wildcard of `routeNameIs`, and spaces because names are typed into
 * templates and shown in `route:list`.
 */
const NAME = /^[\w-]+(?:\.[\w-]+)*$/u;
const NAME_PREFIX = /^(?:[\w-]+\.)+$/u;

export function checkRouteName(name: string, what = 'route name'): string {
  if (!NAME.test(name)) {
    throw new RoutingError('routing.bad-name', `${what} '${name}' must be dotted words of letters, digits, _ and -`);
  }
  return name;
}

export function checkNamePrefix(prefix: string): string {
  if (!NAME_PREFIX.test(prefix)) {
    throw new RoutingError(
      'routing.group-name-prefix',
      `group name prefix '${prefix}' must be dotted words ending with '.', such as 'admin.'`,
    );
  }
  return prefix;
}

/**
 * True when the route name matches one of the patterns, where `*` stands for any run of
 * characters (dots included, possibly none): `products.*` matches `products.index` and
 * `products.images.show` but not `products`. An unnamed route (null) matches nothing.
 */
export function routeNameIs(name: string | null, patterns: readonly string[]): boolean {
  return name !== null && patterns.some((pattern) => globMatches(name, pattern));
}

// Split on `*` and look for the pieces in order: linear, unlike a regular expression, which
// could backtrack badly on patterns such as `a*a*a*a*b`.
function globMatches(text: string, pattern: string): boolean {
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return text === pattern;
  const last = pieces[pieces.length - 1] ?? '';
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  const middle = text.slice(first.length, text.length - last.length);
  let from = 0;
  for (const piece of pieces.slice(1, -1)) {
    const at = middle.indexOf(piece, from);
    if (at === -1) return false;
    from = at + piece.length;
  }
  return true;
}
