import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameSiteTarget } from '../../../../domain/security/same-site.js';

const origins = ['https://app.example', 'http://localhost:3000'];

describe('same-site redirect targets', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/orders?page=2#top', '/orders?page=2#top'],
    ['https://app.example/account', '/account'],
    ['http://localhost:3000/x?y=1', '/x?y=1'],
    ['//evil.test/path', null],
    ['/\\evil.test', null],
    ['\\\\evil.test', null],
    ['https://evil.test/account', null],
    ['https://app.example.evil.test/', null],
    ['https://user:pw@app.example/', null],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['/path\nSet-Cookie: x=1', null],
    ['relative/path', null],
    ['', null],
    [undefined, null],
  ])('%j → %j', (candidate, expected) => {
    expect(sameSiteTarget(candidate, origins)).toBe(expected);
  });

  it('never returns a target that a browser would send to another host', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl(), fc.string(), fc.webPath()), (candidate) => {
        const target = sameSiteTarget(candidate, origins);
        if (target === null) return true;
        const resolved = new URL(target, 'https://app.example');
        return resolved.origin === 'https://app.example';
      }),
    );
  });
});
