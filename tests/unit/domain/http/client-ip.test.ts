import { describe, expect, it } from 'vitest';
import { clientIp, parseTrustedProxies } from '../../../../domain/http/client-ip/client-ip.js';

const none = parseTrustedProxies([]);
const lb = parseTrustedProxies(['10.0.0.0/8', '::1']);
const any = parseTrustedProxies(['*']);

describe('the client IP', () => {
  it.each([
    ['no proxy trusted: the socket, whatever the headers say', none, '203.0.113.5', '1.1.1.1', undefined, '203.0.113.5'],
    ['from a trusted proxy: the forwarded address', lb, '10.0.0.2', '198.51.100.7', undefined, '198.51.100.7'],
    ['a spoofed first entry is skipped: nearest untrusted hop wins', lb, '10.0.0.2', '6.6.6.6, 198.51.100.7, 10.0.0.3', undefined, '198.51.100.7'],
    ['not from a trusted proxy: headers ignored', lb, '198.51.100.9', '1.1.1.1', undefined, '198.51.100.9'],
    ['any proxy trusted: the first entry', any, '192.0.2.1', '198.51.100.7, 192.0.2.3', undefined, '198.51.100.7'],
    ['Forwarded header with port and quotes', lb, '10.0.0.2', undefined, 'for="[2001:db8::7]:4711";proto=https', '2001:db8::7'],
    ['Forwarded header, several hops', lb, '10.0.0.2', undefined, 'for=198.51.100.7:8080, for=10.0.0.9', '198.51.100.7'],
    ['garbage in the chain stops at the last good hop', lb, '10.0.0.2', 'nonsense', undefined, '10.0.0.2'],
    ['IPv4-mapped socket address is plain IPv4', none, '::ffff:203.0.113.5', undefined, undefined, '203.0.113.5'],
    ['trusted IPv6 loopback proxy', lb, '::1', '2001:DB8::1', undefined, '2001:db8::1'],
  ])('%s', (_case, proxies, remote, xff, forwarded, expected) => {
    expect(clientIp({ remoteAddress: remote, xForwardedFor: xff, forwarded, trustedProxies: proxies })).toBe(expected);
  });

  it('is unknown without a socket address', () => {
    expect(clientIp({ remoteAddress: undefined, trustedProxies: none })).toBeNull();
  });

  it('refuses a bad TRUSTED_PROXIES entry', () => {
    expect(() => parseTrustedProxies(['10.0.0.0/99'])).toThrow(TypeError);
  });
});
