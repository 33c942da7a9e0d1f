import { formatIp, parseIp } from './client-ip/ip-address.js';
import { MisuseError } from '../shared/errors.js';

/**
 * TRUSTED_HOSTS as a value. A request whose Host is not listed gets 400 before any handler
 * runs, so a forged Host never ends up in password-reset links, redirects or cache keys.
 *
 * - `example.com` matches that name only.
 * - `*.example.com` matches every subdomain at any depth (`a.example.com`, `a.b.example.com`)
 *   but NOT `example.com` itself: a wildcard for tenants should not quietly also open the
 *   apex. List the apex as well when it is wanted.
 * - A bare `*` or `*.` entry is refused at start-up (TypeError): it would match every host
 *   and so silently switch the check off. Leaving TRUSTED_HOSTS unset is the way to say
 *   "any host".
 * - Names are compared in lower case, without the port and without the trailing dot of a
 *   fully qualified name. IPv6 literals are written in brackets (`[::1]`) and compared by
 *   address, so every spelling of one address matches.
 * - APP_URL's host is always allowed; an empty list allows every host.
 */
export interface TrustedHosts {
  /** True when TRUSTED_HOSTS is unset or empty: every host, even a missing one, is fine. */
  readonly anyHost: boolean;
  /** Exact names (and bracketed IPv6 literals) in canonical form, APP_URL's host included. */
  readonly exact: ReadonlySet<string>;
  /** `.example.com` for each `*.example.com` entry. */
  readonly suffixes: readonly string[];
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/u;
const PORT_DIGITS = /^\d{0,5}$/u;

/** A port as a Host header may carry it: none, or a number up to 65535. */
function validPort(port: string): boolean {
  return PORT_DIGITS.test(port) && (port === '' || Number(port) <= 65_535);
}
const MAX_NAME_LENGTH = 253;

/** A DNS-style name (or dotted IPv4) in canonical form, or null when it is not one. */
function canonicalName(text: string): string | null {
  let name = text.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name.length > MAX_NAME_LENGTH) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

/** `[2001:DB8::1]` → `[2001:db8::1]`; null unless the brackets hold an IPv6 address. */
function canonicalIpv6Literal(text: string): string | null {
  // A zone id (`%eth0`) has no meaning in a URL's host, and `[1.2.3.4]` is no IPv6 literal.
  if (!text.startsWith('[') || !text.endsWith(']') || text.includes('%') || !text.includes(':')) return null;
  const ip = parseIp(text);
  if (ip === null) return null;
  // parseIp turns `::ffff:1.2.3.4` into IPv4; keep it apart from the name `1.2.3.4`.
  return ip.family === 6 ? `[${formatIp(ip)}]` : `[::ffff:${formatIp(ip)}]`;
}

/**
 * The host of a Host header value in canonical form, or null when the value is missing or
 * malformed (empty, userinfo, a bad port, empty labels, characters no host name has).
 */
export function canonicalHost(hostHeader: string | undefined): string | null {
  if (hostHeader === undefined) return null;
  const value = hostHeader.trim();
  let host: string;
  let port: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return null;
    host = value.slice(0, end + 1);
    const rest = value.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    port = rest.slice(1);
    return validPort(port) ? canonicalIpv6Literal(host) : null;
  }
  const colon = value.indexOf(':');
  host = colon === -1 ? value : value.slice(0, colon);
  port = colon === -1 ? '' : value.slice(colon + 1);
  return validPort(port) ? canonicalName(host) : null;
}

function parseEntry(raw: string): { kind: 'exact' | 'suffix'; value: string } {
  const entry = raw.trim();
  const refuse = (why: string): TypeError => new MisuseError('http.bad-trusted-host', `TRUSTED_HOSTS entry '${raw}' is invalid: ${why}`);
  if (entry === '*' || entry === '*.') {
    throw refuse('a wildcard for every host turns the check off; leave TRUSTED_HOSTS unset instead');
  }
  if (entry.startsWith('*.')) {
    const name = canonicalName(entry.slice(2));
    if (name === null) throw refuse('expected *.<host name>');
    return { kind: 'suffix', value: `.${name}` };
  }
  if (entry.includes('*')) throw refuse("'*' is only allowed as the whole first label ('*.example.com')");
  // An IPv6 address may be listed with or without brackets; a colon anywhere else is a port.
  const ipv6 = entry.startsWith('[') ? entry : `[${entry}]`;
  const value = entry.includes(':') ? canonicalIpv6Literal(ipv6) : canonicalName(entry);
  if (value === null) throw refuse('expected a host name without port, or a bracketed IPv6 address');
  return { kind: 'exact', value };
}

/**
 * Builds the list from TRUSTED_HOSTS (already split at commas; blank entries are skipped) and
 * APP_URL. A malformed entry or APP_URL is a configuration mistake: TypeError at start-up.
 */
export function parseTrustedHosts(entries: readonly string[], appUrl: string): TrustedHosts {
  let appHost: string | null;
  try {
    appHost = canonicalHost(new URL(appUrl).host);
  } catch {
    appHost = null;
  }
  if (appHost === null) throw new MisuseError('http.bad-app-url', `APP_URL '${appUrl}' has no usable host`);
  const parsed = entries.filter((entry) => entry.trim() !== '').map(parseEntry);
  const exact = new Set([appHost, ...parsed.filter((e) => e.kind === 'exact').map((e) => e.value)]);
  const suffixes = parsed.filter((e) => e.kind === 'suffix').map((e) => e.value);
  return Object.freeze({ anyHost: parsed.length === 0, exact, suffixes: Object.freeze(suffixes) });
}

/** Whether a request with this Host header may be answered. Never throws. */
export function hostAllowed(trusted: TrustedHosts, hostHeader: string | undefined): boolean {
  if (trusted.anyHost) return true;
  const host = canonicalHost(hostHeader);
  if (host === null) return false;
  if (trusted.exact.has(host)) return true;
  // Bracketed literals never match a wildcard; names have no empty label, so a match of
  // `.example.com` always leaves at least one label in front of it.
  return !host.startsWith('[') && trusted.suffixes.some((suffix) => host.endsWith(suffix));
}
