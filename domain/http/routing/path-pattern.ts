import { RoutingError } from './routing-error.js';

/**
 * A route path such as `/products/{id}/edit` or `/files/{*rest}`, parsed once when the route
 * is defined so a typo stops the app at start-up instead of turning into a 404 later.
 *
 * A static segment is literal text compared with the percent-decoded request segment, so
 * `/café` matches both `/café` and `/caf%C3%A9`. `{name}` takes exactly one non-empty
 * segment; `{*name}` (last only) takes one or more characters of the rest, slashes included.
 */
export type PathSegment =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'wildcard'; readonly name: string };

export interface PathPattern {
  /** The pattern as written, e.g. `/products/{id}`: what `route:list` and `CurrentRoute.path()` show. */
  readonly source: string;
  readonly segments: readonly PathSegment[];
  /** Parameter names in order: the blanks a URL's arguments fill. */
  readonly blanks: readonly string[];
  /** The pattern with parameter names erased (`/products/{}`): equal shapes match the same paths. */
  readonly shape: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/u;
const BLANK = /^\{(\*?)([^{}]*)\}$/u;
// `?` and `#` would end the path in a browser and `%` would be read as an escape, so a
// static segment holding one could never be requested as written.
const FORBIDDEN_IN_STATIC = /[\s?#%]/u;

function bad(source: string, why: string): RoutingError {
  return new RoutingError('routing.bad-pattern', `route path '${source}' is invalid: ${why}`);
}

export function parsePathPattern(source: string): PathPattern {
  if (source === '') {
    throw new RoutingError(
      'routing.empty-path',
      "a route path cannot be empty; write '/' (inside a group, '/' is the group's index route)",
    );
  }
  if (!source.startsWith('/')) throw bad(source, 'it must start with /');

  const segments: PathSegment[] = [];
  const parts = source === '/' ? [] : source.slice(1).split('/');
  parts.forEach((part, index) => segments.push(parseSegment(source, part, index === parts.length - 1)));

  const blanks = segments.flatMap((segment) => (segment.kind === 'static' ? [] : [segment.name]));
  const duplicate = blanks.find((name, index) => blanks.indexOf(name) !== index);
  if (duplicate !== undefined) throw bad(source, `parameter {${duplicate}} appears twice`);

  return Object.freeze({ source, segments: Object.freeze(segments), blanks: Object.freeze(blanks), shape: shapeOf(segments) });
}

function parseSegment(source: string, part: string, last: boolean): PathSegment {
  if (part === '') throw bad(source, 'it has an empty segment (a doubled / or a trailing /)');
  const blank = BLANK.exec(part);
  if (blank === null) {
    if (part.includes('{') || part.includes('}')) {
      throw bad(source, `'${part}': a parameter must be a whole segment, {name} or {*name}`);
    }
    if (FORBIDDEN_IN_STATIC.test(part)) throw bad(source, `'${part}' holds whitespace, ?, # or %`);
    // Browsers collapse `.` and `..` before sending, so such a route could never be reached.
    if (part === '.' || part === '..') throw bad(source, `'${part}' segments are removed by browsers`);
    return { kind: 'static', text: part };
  }
  const [, star, name] = blank as unknown as [string, string, string];
  if (!IDENTIFIER.test(name)) {
    throw bad(source, `'${part}': parameter names are identifiers (letters, digits, _; not starting with a digit)`);
  }
  if (star === '') return { kind: 'param', name };
  if (!last) throw bad(source, `'${part}' must be the last segment`);
  return { kind: 'wildcard', name };
}

function shapeOf(segments: readonly PathSegment[]): string {
  const parts = segments.map((segment) => {
    switch (segment.kind) {
      case 'static':
        return segment.text;
      case 'param':
        return '{}';
      case 'wildcard':
        return '{*}';
    }
  });
  return `/${parts.join('/')}`;
}

/** Puts a route path under a prefix; the inner index route `/` becomes the prefix itself. */
export function joinPaths(prefix: string, path: string): string {
  if (path === '/') return prefix;
  return prefix === '/' ? path : `${prefix}${path}`;
}

/**
 * Splits a request path into raw segments (`/` is no segment at all) and their decoded
 * forms. Null when some segment has a malformed escape (or escapes bytes that are not UTF-8).
 */
export function splitRequestPath(path: string): { raw: string[]; decoded: string[] } | null {
  if (!path.startsWith('/')) return null;
  const raw = path === '/' ? [] : path.slice(1).split('/');
  const decoded: string[] = [];
  for (const segment of raw) {
    try {
      decoded.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  return { raw, decoded };
}

/** The parameters when the pattern matches the split request path, otherwise null. */
export function matchPath(
  pattern: PathPattern,
  raw: readonly string[],
  decoded: readonly string[],
): Record<string, string> | null {
  const params: [string, string][] = [];
  for (const [index, segment] of pattern.segments.entries()) {
    if (segment.kind === 'wildcard') {
      if (raw.slice(index).join('/') === '') return null;
      params.push([segment.name, decoded.slice(index).join('/')]);
      return Object.fromEntries(params);
    }
    // A raw segment is empty exactly when its decoded form is, so checking one suffices.
    const value = decoded[index];
    if (value === undefined || value === '') return null;
    if (segment.kind === 'static' && value !== segment.text) return null;
    if (segment.kind === 'param') params.push([segment.name, value]);
  }
  return raw.length === pattern.segments.length ? Object.fromEntries(params) : null;
}

const RANK = { static: 0, param: 1, wildcard: 2 } as const;

/**
 * Negative when `a` is more specific than `b`. Compared segment by segment from the left: a
 * static segment beats `{param}`, which beats `{*rest}`. Meant for patterns that matched the
 * same path, so the first difference decides.
 */
export function compareSpecificity(a: PathPattern, b: PathPattern): number {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (left === undefined || right === undefined) break;
    const difference = RANK[left.kind] - RANK[right.kind];
    if (difference !== 0) return difference;
  }
  return b.segments.length - a.segments.length;
}
