import { inRange, parseCidr, parseIp } from '../http/client-ip/ip-address.js';
import type { CidrRange, IpAddress } from '../http/client-ip/ip-address.js';
import { FrameworkError } from '../shared/errors.js';

/**
 * Where an outgoing webhook may not go: the app's own machine and networks (a webhook URL is
 * typed by a user, so it must not reach the admin port on 127.0.0.1, the cloud's metadata
 * service on 169.254.169.254, or a database on 10.x). Checked on the addresses the host name
 * resolves to, and the connection is made to the address checked (no second lookup that a
 * rebinding DNS server could answer differently).
 */
const REFUSED: readonly (readonly [string, string])[] = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::/96', 'NAT64 (may reach a private IPv4 address)'],
  ['64:ff9b:1::/48', 'local NAT64'],
  ['100::/64', 'discard'],
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'private (unique local)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

const RANGES: readonly { range: CidrRange; text: string; kind: string }[] = REFUSED.map(([text, kind]) => {
  const range = parseCidr(text);
  if (range === null) throw new FrameworkError('webhooks.bad-built-in-range', `bad built-in range ${text}`);
  return { range, text, kind };
});

/** Every refused range as text, with its kind (tests walk them all). */
export const REFUSED_RANGES: readonly { text: string; kind: string }[] = RANGES.map(({ text, kind }) => ({ text, kind }));

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a webhook may connect to `address`. Loopback is allowed only when `allowLoopback`
 * (APP_ENV=local: a receiver on the developer's machine); every other refused range never.
 */
export function checkWebhookAddress(address: string, allowLoopback: boolean): AddressVerdict {
  const ip: IpAddress | null = parseIp(address);
  if (ip === null) return { allowed: false, reason: `${JSON.stringify(address)} is not an IP address` };
  for (const { range, text, kind } of RANGES) {
    if (!inRange(ip, range)) continue;
    if (kind === 'loopback' && allowLoopback) return { allowed: true };
    return { allowed: false, reason: `${address} is in ${text} (${kind})` };
  }
  return { allowed: true };
}

export type UrlVerdict = { allowed: true; url: URL } | { allowed: false; reason: string };

/** An absolute http(s) URL without credentials: the only kind a webhook is sent to. */
export function checkWebhookUrl(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { allowed: false, reason: `scheme ${url.protocol} (only http and https)` };
  if (url.username !== '' || url.password !== '') return { allowed: false, reason: 'credentials in the URL' };
  return { allowed: true, url };
}
