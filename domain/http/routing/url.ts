import type { PathSegment } from './path-pattern.js';
import type { Route, RouteTable } from './route-table.js';
import { RoutingError } from './routing-error.js';

export type QueryScalar = string | number | boolean;
/** null and undefined leave the key out; an array repeats the key (`tag=a&tag=b`). */
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;

/**
 * The path of a named route, its `{...}` blanks filled in order by `args`, percent-encoded;
 * `{*rest}` keeps its slashes and encodes each piece between them. With `query`, the
 * entries follow `?` in the object's key order (JavaScript puts integer-like keys first),
 * booleans written `1` and `0` as HTML checkboxes and validators read them.
 *
 * Only the path is produced; the host of a domain route is the caller's to add. An unknown
 * name, a missing or extra argument, an empty argument (its URL would match nothing), a
 * non-finite number or text that is not well-formed Unicode throws `RoutingError`.
 */
export function urlFor<H>(
  table: RouteTable<H>,
  name: string,
  args: readonly (string | number)[] = [],
  query?: Readonly<Record<string, QueryValue>>,
): string {
  const route = table.named.get(name);
  if (route === undefined) throw new RoutingError('routing.unknown-route', `no route is named '${name}'`);
  const blanks = route.pattern.blanks;
  if (args.length !== blanks.length) {
    const problem =
      args.length < blanks.length
        ? `missing ${blanks.slice(args.length).map((blank) => `{${blank}}`).join(', ')}`
        : `extra ${args.slice(blanks.length).map((arg) => JSON.stringify(arg)).join(', ')}`;
    const wanted = blanks.map((blank) => `{${blank}}`).join(', ') || 'none';
    throw argumentError(route, `takes ${blanks.length} argument(s) (${wanted}), got ${args.length}: ${problem}`);
  }

  let next = 0;
  const parts = route.pattern.segments.map((segment) => {
    if (segment.kind === 'static') return encodeStatic(segment.text);
    const value = argumentText(route, segment, args[next]);
    next += 1;
    if (segment.kind === 'param') return encodeSegment(route, segment, value);
    return value
      .split('/')
      .map((piece) => encodeSegment(route, segment, piece))
      .join('/');
  });
  const path = `/${parts.join('/')}`;
  return query === undefined ? path : `${path}${queryString(route, query)}`;
}

function argumentError<H>(route: Route<H>, problem: string): RoutingError {
  return new RoutingError('routing.url-arguments', `route '${route.name ?? ''}' (${route.pattern.source}) ${problem}`);
}

function argumentText<H>(route: Route<H>, segment: PathSegment, arg: string | number | undefined): string {
  const blank = segment.kind === 'static' ? '' : `{${segment.name}}`;
  if (typeof arg === 'number' && !Number.isFinite(arg)) throw argumentError(route, `got ${arg} for ${blank}`);
  const text = arg === undefined ? '' : String(arg);
  if (text === '') throw argumentError(route, `got an empty argument for ${blank}; its URL would match no route`);
  return text;
}

function encodeSegment<H>(route: Route<H>, segment: PathSegment, value: string): string {
  // Browsers resolve `.` and `..` segments before sending; escaped, they arrive as written.
  if (value === '.') return '%2E';
  if (value === '..') return '%2E%2E';
  try {
    return encodeURIComponent(value);
  } catch {
    const blank = segment.kind === 'static' ? '' : `{${segment.name}}`;
    throw argumentError(route, `got text that is not well-formed Unicode (a lone surrogate) for ${blank}`);
  }
}

// Static text is written as readably as the path allows: the characters RFC 3986 permits in
// a segment (`:`, `@`, `$`, `&`, `+`, `,`, `;`, `=`) are left as they are.
const PATH_SAFE_ESCAPES = /%(?:24|26|2B|2C|3A|3B|3D|40)/gu;

function encodeStatic(text: string): string {
  return encodeURIComponent(text).replace(PATH_SAFE_ESCAPES, (escape) => decodeURIComponent(escape));
}

function queryString<H>(route: Route<H>, query: Readonly<Record<string, QueryValue>>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? (value as readonly QueryScalar[]) : [value as QueryScalar];
    for (const item of values) {
      pairs.push(`${queryPart(route, key, key)}=${queryPart(route, key, scalarText(route, key, item))}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

function scalarText<H>(route: Route<H>, key: string, value: QueryScalar): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RoutingError('routing.url-query', `route '${route.name ?? ''}': query '${key}' is ${value}`);
  }
  return String(value);
}

function queryPart<H>(route: Route<H>, key: string, text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw new RoutingError('routing.url-query', `route '${route.name ?? ''}': query '${key}' is not well-formed Unicode`);
  }
}
