import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey, formatIp, inRange, parseCidr, parseIp } from '../../../../domain/http/client-ip/ip-address.js';

const canonical = (text: string) => {
  const ip = parseIp(text);
  return ip === null ? null : formatIp(ip);
};

describe('IP addresses', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    [' 10.1.2.3 ', '10.1.2.3'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8::1%eth0', '2001:db8::1'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:0207', '192.0.2.7'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['1:0:0:0:0:0:0:0', '1::'],
    ['::', '::'],
    ['fe80::1:2:3:4', 'fe80::1:2:3:4'],
  ])('%s is %s', (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  it.each(['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.-4', 'a.b.c.d', ':::', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '::ffff:999.0.0.1', 'localhost'])(
    'refuses %j',
    (input) => {
      expect(parseIp(input)).toBeNull();
    },
  );

  it('formats any IPv6 address so that it parses back to itself, whatever the spelling', () => {
    fc.assert(
      fc.property(fc.ipV6(), (text) => {
        const first = canonical(text);
        return first !== null && canonical(first) === first && canonical(text.toUpperCase()) === first;
      }),
    );
  });

  it('treats an IPv4 address and its IPv4-mapped IPv6 spelling as one client', () => {
    fc.assert(fc.property(fc.ipV4(), (text) => canonical(`::ffff:${text}`) === canonical(text)));
  });

  it.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['192.168.1.0/24', '192.168.1.255', true],
    ['192.168.1.7', '192.168.1.7', true],
    ['192.168.1.7', '192.168.1.8', false],
    ['0.0.0.0/0', '8.8.8.8', true],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::ffff:10.0.0.0/104', '10.9.9.9', true],
    ['10.0.0.0/8', '::ffff:10.1.1.1', true],
    ['10.0.0.0/8', '::1', false],
  ])('%s contains %s: %s', (range, address, expected) => {
    expect(inRange(parseIp(address)!, parseCidr(range)!)).toBe(expected);
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/8/8', '10.0.0.0/x', 'nope/8'])('refuses the range %j', (range) => {
    expect(parseCidr(range)).toBeNull();
  });

  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
  ])('counts %s as client %s', (address, key) => {
    expect(clientKey(parseIp(address)!)).toBe(key);
  });
});
