import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seoHtml } from '../../../../adapters/http/kernel/page-head.js';

const APP_URL = 'https://shop.example';
const canonicalOf = (path: string): string => /<link rel="canonical" href="([^"]*)">/u.exec(seoHtml({ title: 'T' }, { appUrl: APP_URL, path, siteName: 'Shop' }))?.[1] ?? '';

describe('seo(): the default canonical URL is the page on APP_URL\'s host', () => {
  it.each([
    ['/shop', 'https://shop.example/shop'],
    ['//evil.example/x', 'https://shop.example/evil.example/x'],
    ['/\\evil.example/x', 'https://shop.example/evil.example/x'],
    ['///\\\\evil.example', 'https://shop.example/evil.example'],
  ])('%s → %s', (path, expected) => {
    expect(canonicalOf(path)).toBe(expected);
  });

  it('never names another host, whatever the requested path', () => {
    fc.assert(
      fc.property(fc.string(), (rest) => {
        const canonical = canonicalOf(`/${rest}`);
        return canonical === '' || new URL(canonical).host === 'shop.example';
      }),
    );
  });
});
