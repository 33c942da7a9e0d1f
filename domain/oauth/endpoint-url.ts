/**
 * Which issuer and endpoint URLs a provider may use. HTTPS anywhere; plain `http://` only on
 * the loopback hosts 127.0.0.1, ::1 and localhost, so tests and development need no TLS while
 * no setting can send a code, a token or a client secret over the network in clear.
 *
 * The URL is judged after WHATWG parsing, the parser `fetch` and openid-client use, so the
 * host judged is the host connected to: `http://localhost@evil.example` and
 * `http://evil.example\@localhost` are evil.example, `http://LOCALHOST` and `http://127.1` are
 * loopback. Callers should use the returned `href`, the spelling that was judged.
 */
export type EndpointCheck =
  | { readonly kind: 'allowed'; readonly href: string }
  | { readonly kind: 'refused'; readonly reason: EndpointRefusal };

export type EndpointRefusal =
  /** Not an absolute URL. */
  | 'malformed'
  /** Neither https: nor http:. */
  | 'scheme'
  /** `http:` on a host other than the three loopback names. */
  | 'plain-http'
  /** A user name or password in the URL: it would be sent and logged, and it is the classic way to disguise a host. */
  | 'credentials';

/** Hostnames as the WHATWG parser spells them (lower case; IPv6 in brackets, compressed). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkEndpointUrl(url: string): EndpointCheck {
  // Leading or trailing spaces and controls, and tabs or newlines inside, are removed by the
  // parser without a word; a setting that needs that is a mistake worth refusing.
  // eslint-disable-next-line no-control-regex
  if (typeof url !== 'string' || /[\u0000-\u0020\u007f]/u.test(url) || !URL.canParse(url)) return refused('malformed');
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return refused('credentials');
  if (parsed.protocol === 'https:') return allowed(parsed);
  if (parsed.protocol !== 'http:') return refused('scheme');
  return isLoopbackHost(parsed.hostname) ? allowed(parsed) : refused('plain-http');
}

/** The host of a parsed URL (`URL.hostname`) is one of the loopback names. `127.0.0.2` and `localhost.` are not. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

function allowed(parsed: URL): EndpointCheck {
  return { kind: 'allowed', href: parsed.href };
}

function refused(reason: EndpointRefusal): EndpointCheck {
  return { kind: 'refused', reason };
}
