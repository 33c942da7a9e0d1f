/**
 * IP addresses as values. Every spelling of one address (compressed or not, upper or lower
 * case, an IPv4 address inside IPv6 as `::ffff:1.2.3.4`, a `%zone` suffix) parses to the same
 * value, so rate limits, logs and trusted-proxy checks see one client, not several.
 */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!/^\d{1,3}$/u.test(part) || (part.length > 1 && part.startsWith('0'))) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[index] = value;
  }
  return bytes;
}

function parseIpv6(text: string): Uint8Array | null {
  let head = text;
  let tail4: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    tail4 = parseIpv4(text.slice(lastColon + 1));
    if (tail4 === null) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const group = (part: string) => (part === '' ? [] : part.split(':'));
  const left = group(halves[0] ?? '');
  const right = halves.length === 2 ? group(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  for (const [index, hex] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/iu.test(hex)) return null;
    const value = parseInt(hex, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  }
  if (tail4 !== null) bytes.set(tail4, 12);
  return bytes;
}

const V4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

export function parseIp(raw: string): IpAddress | null {
  let text = raw.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) {
    const v4 = parseIpv4(text);
    return v4 === null ? null : { family: 4, bytes: v4 };
  }
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  if (V4_MAPPED_PREFIX.every((byte, index) => v6[index] === byte)) return { family: 4, bytes: v6.slice(12) };
  return { family: 6, bytes: v6 };
}

/** The canonical text: dotted IPv4, or RFC 5952 IPv6 (lower case, longest zero run as `::`). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [...ip.bytes].join('.');
  const groups: number[] = [];
  for (let index = 0; index < 16; index += 2) groups.push(((ip.bytes[index] ?? 0) << 8) | (ip.bytes[index + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((value) => value.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export interface CidrRange {
  readonly network: IpAddress;
  readonly prefix: number;
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address (a full-length prefix). */
export function parseCidr(raw: string): CidrRange | null {
  const [address = '', prefixText, extra] = raw.trim().split('/');
  if (extra !== undefined) return null;
  const network = parseIp(address);
  if (network === null) return null;
  const bits = network.family === 4 ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: bits };
  if (!/^\d{1,3}$/u.test(prefixText)) return null;
  const prefix = Number(prefixText);
  // `::ffff:10.0.0.0/104` names an IPv4 range: the address became IPv4, the prefix follows.
  const adjusted = network.family === 4 && address.includes(':') ? prefix - 96 : prefix;
  return adjusted >= 0 && adjusted <= bits ? { network, prefix: adjusted } : null;
}

export function inRange(ip: IpAddress, range: CidrRange): boolean {
  if (ip.family !== range.network.family) return false;
  let remaining = range.prefix;
  for (let index = 0; remaining > 0; index++, remaining -= 8) {
    const mask = remaining >= 8 ? 0xff : (0xff << (8 - remaining)) & 0xff;
    if (((ip.bytes[index] ?? 0) & mask) !== ((range.network.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The key a client is counted under (rate limits, the login lock): the address itself for
 * IPv4, its /64 network for IPv6, since one IPv6 subscriber usually holds a whole /64.
 */
export function clientKey(ip: IpAddress): string {
  if (ip.family === 4) return formatIp(ip);
  const network = new Uint8Array(16);
  network.set(ip.bytes.slice(0, 8));
  return `${formatIp({ family: 6, bytes: network })}/64`;
}
