import { RoutingError } from './routing-error.js';

/**
 * The host pattern of `Routes.domain(pattern, routes)`, such as `{tenant}.example.com`.
 * `{name}` matches exactly one label of the host. Host names are case-insensitive, so the
 * pattern and the request's host are both compared in lower case.
 */
export type HostLabel = { readonly kind: 'static'; readonly text: string } | { readonly kind: 'param'; readonly name: string };

export interface HostPattern {
  /** The pattern as written: what `route:list` shows in its domain column. */
  readonly source: string;
  readonly labels: readonly HostLabel[];
  /** The pattern in lower case with parameter names erased: equal shapes match the same hosts. */
  readonly shape: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/u;
const PARAM = /^\{([^{}]*)\}$/u;
const STATIC_LABEL = /^[a-z0-9_-]+$/u;

function bad(source: string, why: string): RoutingError {
  return new RoutingError('routing.bad-domain', `domain pattern '${source}' is invalid: ${why}`);
}

export function parseHostPattern(source: string): HostPattern {
  if (source === '') throw bad(source, 'it is empty');
  const labels = source.split('.').map((label): HostLabel => {
    if (label === '') throw bad(source, 'it has an empty label (a leading, doubled or trailing dot)');
    const param = PARAM.exec(label);
    if (param !== null) {
      const name = param[1] ?? '';
      if (!IDENTIFIER.test(name)) throw bad(source, `'${label}': parameter names are identifiers`);
      return { kind: 'param', name };
    }
    const text = label.toLowerCase();
    if (!STATIC_LABEL.test(text)) {
      throw bad(source, `'${label}': a label is letters, digits, - and _, or a whole {name} (no port)`);
    }
    return { kind: 'static', text };
  });
  const names = labels.flatMap((label) => (label.kind === 'param' ? [label.name] : []));
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) throw bad(source, `parameter {${duplicate}} appears twice`);
  const shape = labels.map((label) => (label.kind === 'static' ? label.text : '{}')).join('.');
  return Object.freeze({ source, labels: Object.freeze(labels), shape });
}

/**
 * The labels of a Host header value: lower case, without the port and without the trailing
 * dot of a fully qualified name. `[::1]:8080` keeps its brackets (and so matches no pattern).
 */
export function hostLabels(host: string): string[] {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    name = end === -1 ? name : name.slice(0, end + 1);
  } else {
    const colon = name.indexOf(':');
    if (colon !== -1) name = name.slice(0, colon);
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name.split('.');
}

/** The domain parameters when the host's labels match the pattern, otherwise null. */
export function matchHost(pattern: HostPattern, labels: readonly string[]): Record<string, string> | null {
  if (labels.length !== pattern.labels.length) return null;
  const params: [string, string][] = [];
  for (const [index, label] of pattern.labels.entries()) {
    const value = labels[index];
    if (value === undefined || value === '') return null;
    if (label.kind === 'static' && value !== label.text) return null;
    if (label.kind === 'param') params.push([label.name, value]);
  }
  return Object.fromEntries(params);
}

/**
 * Negative when `a` is more specific than `b`. Labels are compared from the right (the top
 * of the DNS hierarchy) and a static label beats `{name}`: `admin.example.com` wins over
 * `{tenant}.example.com` for the host admin.example.com.
 */
export function compareHostSpecificity(a: HostPattern, b: HostPattern): number {
  const left = [...a.labels].reverse();
  const right = [...b.labels].reverse();
  for (const [index, label] of left.entries()) {
    const other = right[index];
    if (other === undefined) break;
    if (label.kind !== other.kind) return label.kind === 'static' ? -1 : 1;
  }
  return 0;
}
