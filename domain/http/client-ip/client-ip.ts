import { formatIp, inRange, parseCidr, parseIp } from './ip-address.js';
import type { CidrRange, IpAddress } from './ip-address.js';
import { MisuseError } from '../../shared/errors.js';

/** TRUSTED_PROXIES parsed: any proxy (`*`), or a list of ranges. */
export type TrustedProxies = { kind: 'any' } | { kind: 'ranges'; ranges: CidrRange[] };

export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  if (entries.includes('*')) return { kind: 'any' };
  const ranges = entries.map((entry) => {
    const range = parseCidr(entry);
    if (range === null) throw new MisuseError('http.bad-trusted-proxy', `"${entry}" is not an IP address or CIDR range`);
    return range;
  });
  return { kind: 'ranges', ranges };
}

function trusted(ip: IpAddress, proxies: TrustedProxies): boolean {
  return proxies.kind === 'any' || proxies.ranges.some((range) => inRange(ip, range));
}

/** The addresses a `Forwarded` header (RFC 7239) lists in its `for=` parameters, in order. */
function forwardedFor(header: string): string[] {
  const found: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const [name, value] = pair.split('=', 2).map((part) => part.trim());
      if (name?.toLowerCase() !== 'for' || value === undefined) continue;
      let address = value.replace(/^"|"$/gu, '');
      // `[2001:db8::1]:4711` and `192.0.2.60:8080` carry ports; the address is what counts.
      if (address.startsWith('[')) address = address.slice(1, address.indexOf(']'));
      else if (/^[\d.]+:\d+$/u.test(address)) address = address.slice(0, address.indexOf(':'));
      found.push(address);
    }
  }
  return found;
}

export interface ClientIpInput {
  /** The socket's peer address. */
  remoteAddress: string | undefined;
  xForwardedFor?: string | undefined;
  forwarded?: string | undefined;
  trustedProxies: TrustedProxies;
}

/**
 * Who the client is. Forwarding headers are believed only when the connection comes from a
 * trusted proxy; then the chain is walked from the nearest hop outwards and the first address
 * that is not a trusted proxy is the client (so a client cannot spoof itself by sending its own
 * `X-Forwarded-For`). Unparsable entries end the walk at the last address known to be good.
 */
export function clientIp(input: ClientIpInput): string | null {
  const remote = parseIp(input.remoteAddress ?? '');
  if (remote === null) return null;
  if (!trusted(remote, input.trustedProxies)) return formatIp(remote);
  const chain =
    input.forwarded !== undefined && input.forwarded !== ''
      ? forwardedFor(input.forwarded)
      : (input.xForwardedFor ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  let client = remote;
  for (let index = chain.length - 1; index >= 0; index--) {
    const hop = parseIp(chain[index] ?? '');
    if (hop === null) break;
    client = hop;
    if (!trusted(hop, input.trustedProxies)) break;
  }
  return formatIp(client);
}
