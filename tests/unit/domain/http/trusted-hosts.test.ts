import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHost, hostAllowed, parseTrustedHosts } from '../../../../domain/http/trusted-hosts.js';

const APP_URL = 'https://app.example.com';
const trusted = parseTrustedHosts(['example.org', '*.tenants.example', 'Shop.Example.NET.', '[2001:DB8::1]', '10.0.0.5'], APP_URL);

describe('trusted hosts', () => {
  it.each([
    ['example.org', true],
    ['EXAMPLE.ORG', true],
    ['example.org:8443', true],
    ['example.org.', true],
    ['example.org.:80', true],
    ['  example.org  ', true],
    ['shop.example.net', true],
    ['app.example.com', true],
    ['app.example.com:3000', true],
    ['a.tenants.example', true],
    ['a.b.c.tenants.example', true],
    ['A.Tenants.Example:80', true],
    ['tenants.example', false],
    ['xtenants.example', false],
    ['a.tenants.example.evil.test', false],
    ['example.org.evil.test', false],
    ['evil-example.org', false],
    ['sub.example.org', false],
    ['example.com', false],
    ['[2001:db8::1]', true],
    ['[2001:0db8:0:0::1]:8080', true],
    ['[2001:db8::2]', false],
    ['[2001:db8::1%25eth0]', false],
    ['10.0.0.5', true],
    ['10.0.0.5:8080', true],
    ['10.0.0.6', false],
    ['[10.0.0.5]', false],
    [undefined, false],
    ['', false],
    [' ', false],
    ['example.org:http', false],
    ['example.org:123456', false],
    ['user@example.org', false],
    ['example..org', false],
    ['.example.org', false],
    ['exa mple.org', false],
    ['example.org/path', false],
    ['[2001:db8::1', false],
    ['[2001:db8::1]x', false],
    ['ex\u00e4mple.org', false],
    ['a.tenants.example\t', true],
    ['-a.tenants.example', false],
  ])('Host %j → %s', (host, expected) => {
    expect(hostAllowed(trusted, host)).toBe(expected);
  });

  it.each([[[]], [['']], [[' ', '']]])('an empty list %j allows every host, even a missing one', (entries) => {
    const any = parseTrustedHosts(entries, APP_URL);
    expect(hostAllowed(any, 'anything.test')).toBe(true);
    expect(hostAllowed(any, undefined)).toBe(true);
    expect(hostAllowed(any, 'not a host')).toBe(true);
  });

  it.each([
    ['http://localhost:3000', 'localhost:3000'],
    ['https://Example.COM./path', 'example.com'],
    ['http://[::1]:8080/', '[::1]'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
  ])("APP_URL %s makes its host %s trusted", (appUrl, host) => {
    expect(hostAllowed(parseTrustedHosts(['other.test'], appUrl), host)).toBe(true);
  });

  it.each([
    ['*', /unset/u],
    ['*.', /unset/u],
    ['*example.com', /first label/u],
    ['a.*.example.com', /first label/u],
    ['example.com:8080', /without port/u],
    ['exa mple.com', /host name/u],
    ['*..example.com', /\*\.<host name>/u],
    ['[::1', /IPv6/u],
  ])('entry %j is a TypeError (%s)', (entry, message) => {
    expect(() => parseTrustedHosts([entry], APP_URL)).toThrow(TypeError);
    expect(() => parseTrustedHosts([entry], APP_URL)).toThrow(message);
  });

  it.each(['', 'not a url', '/relative'])('APP_URL %j without a host is a TypeError', (appUrl) => {
    expect(() => parseTrustedHosts(['example.com'], appUrl)).toThrow(TypeError);
  });

  it.each([
    ['::1', '[::1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
  ])('IPv6 entry %s matches Host %s', (entry, host) => {
    expect(hostAllowed(parseTrustedHosts([entry], APP_URL), host)).toBe(true);
  });

  it.each([
    ['Example.COM.:443', 'example.com'],
    ['[::FFFF:1.2.3.4]', '[::ffff:1.2.3.4]'],
    ['example.com:', 'example.com'],
    [undefined, null],
    ['a..b', null],
  ])('canonicalHost(%j) = %j', (header, expected) => {
    expect(canonicalHost(header)).toBe(expected);
  });

  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/u);
  const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));

  it('never throws, and a listed list never allows an arbitrary string it does not name', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (garbage, header) => {
        expect(() => hostAllowed(trusted, header)).not.toThrow();
        const list = parseTrustedHosts(['listed.test'], 'https://app.test');
        const host = canonicalHost(garbage);
        if (host !== 'listed.test' && host !== 'app.test') expect(hostAllowed(list, garbage)).toBe(false);
      }),
    );
  });

  it('allows exactly the listed names, their wildcard subdomains and APP_URL host', () => {
    const listedNames = fc.uniqueArray(name, { minLength: 1, maxLength: 4 });
    const shapes = fc.integer({ min: 0, max: 4 });
    fc.assert(
      fc.property(listedNames, name, name, fc.nat(), shapes, fc.boolean(), (listed, wildcard, other, pick, shape, upper) => {
        const list = parseTrustedHosts([...listed, `*.${wildcard}`], 'https://app.test');
        // Mostly near misses: a listed name, a subdomain of one, the wildcard's apex, a subdomain of it.
        const near = [other, listed[pick % listed.length] ?? other, `${other}.${listed[0] ?? ''}`, wildcard, `${other}.${wildcard}`];
        const candidate = near[shape] ?? other;
        const expected = listed.includes(candidate) || candidate.endsWith(`.${wildcard}`) || candidate === 'app.test';
        const header = upper ? `${candidate.toUpperCase()}:8080` : `${candidate}.`;
        expect(hostAllowed(list, header)).toBe(expected);
      }),
    );
  });
});
