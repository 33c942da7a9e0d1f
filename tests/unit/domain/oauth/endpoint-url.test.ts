import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl } from '../../../../domain/oauth/endpoint-url.js';
import type { EndpointRefusal } from '../../../../domain/oauth/endpoint-url.js';

describe('plain http:// issuers and endpoints only on loopback', () => {
  it.each<[string, string]>([
    ['https anywhere', 'https://accounts.example.com/.well-known/openid-configuration'],
    ['http on localhost', 'http://localhost:3000/oidc'],
    ['http on 127.0.0.1', 'http://127.0.0.1:9000/token'],
    ['http on [::1] with a port', 'http://[::1]:8080'],
    ['http on LOCALHOST (hosts are case-insensitive)', 'http://LOCALHOST/authorize'],
    ['HTTP:// in capitals', 'HTTP://LocalHost:3000/'],
    ['::1 written out in full', 'http://[0:0:0:0:0:0:0:1]/'],
    ['127.0.0.1 shortened to 127.1 (the parser reads 127.0.0.1, and so does fetch)', 'http://127.1/'],
    ['127.0.0.1 in hex', 'http://0x7f.0.0.1/'],
    ['localhost percent-encoded', 'http://loc%61lhost/'],
  ])('allows %s', (_what, url) => {
    expect(checkEndpointUrl(url).kind).toBe('allowed');
  });

  it.each<[string, string, EndpointRefusal]>([
    ['a public host', 'http://accounts.example.com/', 'plain-http'],
    ['a name that starts with localhost', 'http://localhost.evil.com/', 'plain-http'],
    ['a name that starts with 127.0.0.1', 'http://127.0.0.1.nip.io/', 'plain-http'],
    ['localhost with a trailing dot (resolved through DNS)', 'http://localhost./', 'plain-http'],
    ['a subdomain of localhost', 'http://app.localhost/', 'plain-http'],
    ['another loopback address than the three', 'http://127.0.0.2/', 'plain-http'],
    ['0.0.0.0', 'http://0.0.0.0/', 'plain-http'],
    ['IPv4 inside IPv6', 'http://[::ffff:127.0.0.1]/', 'plain-http'],
    ['a percent-encoded dot hiding a domain', 'http://localhost%2eevil.com/', 'plain-http'],
    ['a backslash before @ (special schemes read it as a slash)', 'http://evil.example\\@localhost/', 'plain-http'],
    ['a user name of localhost', 'http://localhost@evil.example/', 'credentials'],
    ['a user and port-like password', 'http://localhost:80@evil.example/', 'credentials'],
    ['credentials even over https', 'https://user:pass@accounts.example.com/', 'credentials'],
    ['ftp', 'ftp://localhost/', 'scheme'],
    ['javascript', 'javascript:alert(1)', 'scheme'],
    ['file', 'file:///etc/passwd', 'scheme'],
    ['a relative path', '/oauth/token', 'malformed'],
    ['an empty string', '', 'malformed'],
    ['a leading space', ' http://localhost/', 'malformed'],
    ['a newline inside (the parser would drop it)', 'http://local\nhost/', 'malformed'],
    ['a tab inside', 'http://evil.com\t/', 'malformed'],
    ['an IPv6 zone', 'http://[::1%25eth0]/', 'malformed'],
  ])('refuses %s', (_what, url, reason) => {
    expect(checkEndpointUrl(url)).toEqual({ kind: 'refused', reason });
  });

  it('gives back the spelling it judged, for the caller to use', () => {
    expect(checkEndpointUrl('http://127.1:8080/x')).toEqual({ kind: 'allowed', href: 'http://127.0.0.1:8080/x' });
    expect(checkEndpointUrl('HTTP://LOCALHOST/a')).toEqual({ kind: 'allowed', href: 'http://localhost/a' });
  });

  // URLs glued from the pieces that tricks are made of, and some free text.
  const piece = fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'evil.com', 'LOCALHOST', '0x7f', '1', '.', '@', ':', ':80', '%2e', '%40', '\\', '/', '#', '?', '[', ']');
  const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'http:/', 'http:', 'http:\\\\');
  const urls = fc.oneof(
    fc.tuple(scheme, fc.array(piece, { maxLength: 6 })).map(([s, pieces]) => s + pieces.join('')),
    fc.string().map((s) => `http://${s}`),
  );

  it('never allows plain http to a host other than the three, however the URL is spelled', () => {
    fc.assert(
      fc.property(urls, (url) => {
        const check = checkEndpointUrl(url);
        if (check.kind === 'allowed') {
          const parsed = new URL(check.href);
          expect(parsed.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)).toBe(true);
          expect(parsed.username + parsed.password).toBe('');
        }
      }),
      { numRuns: 1000 },
    );
  });
});
