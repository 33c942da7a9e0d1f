import { posix, resolve, win32 } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_KEY_BYTES, UnsafeStorageKey, checkStorageKey, safeStorageKey } from '../../../../domain/storage/storage-key.js';

function decodedOrSame(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

describe('storage keys', () => {
  it.each([
    ['avatars/7/photo.jpg'],
    ['report.pdf'],
    ['a/b/c/d/e.txt'],
    ['.hidden'],
    ['photo..jpg'],
    ['Ünïcödé/名前.png'],
    ['100% done.txt'],
    ['x'.repeat(255)],
  ])('accepts %s', (key) => {
    expect(checkStorageKey(key)).toEqual({ kind: 'ok', key });
  });

  it.each([
    ['', 'is empty'],
    ['../secret', '".." segment'],
    ['a/../../etc/passwd', '".." segment'],
    ['a/..', '".." segment'],
    ['./a', '"." segment'],
    ['a/./b', '"." segment'],
    ['.. /a', '".. " segment'],
    ['.../a', '"..." segment'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/win.ini', 'drive letter'],
    ['c:evil', 'drive letter'],
    ['a\\..\\b', 'backslash'],
    ['..\\secret', 'backslash'],
    ['a\0b', 'control character'],
    ['a\nb', 'control character'],
    ['a\u0085b', 'control character'],
    ['%2e%2e/secret', 'percent-encoded'],
    ['..%2fsecret', 'percent-encoded'],
    ['a%2F..%2F..%2Fb', 'percent-encoded'],
    ['%5c', 'percent-encoded'],
    ['a%00b', 'percent-encoded'],
    ['a//b', 'empty segment'],
    ['a/', 'empty segment'],
    [' a', 'space'],
    ['a/b ', 'space'],
    ['\ud800x', 'lone surrogate'],
    ['x'.repeat(256), 'segment longer'],
    [`${'a/'.repeat(MAX_KEY_BYTES / 2)}a`, 'longer than 1024 bytes'],
  ])('refuses %j (%s)', (key, why) => {
    const verdict = checkStorageKey(key);
    expect(verdict.kind).toBe('refused');
    expect(verdict.kind === 'refused' ? verdict.why : '').toContain(why);
  });

  it('refuses what is not text', () => {
    for (const value of [null, undefined, 7, ['a'], { key: 'a' }]) expect(checkStorageKey(value).kind).toBe('refused');
  });

  it('safeStorageKey throws UnsafeStorageKey with the reason', () => {
    expect(() => safeStorageKey('../x')).toThrow(UnsafeStorageKey);
    expect(() => safeStorageKey('../x')).toThrow(/"\.\." segment/u);
    expect(safeStorageKey('a/b')).toBe('a/b');
  });

  // Characters that matter to paths, mixed with ordinary ones, so the search hits the edges.
  const pathy = fc.string({
    unit: fc.constantFrom('.', '/', '\\', '%', '2', 'e', 'f', 'c', ':', ' ', '\0', 'a', 'C', '5', '\n', 'é'),
    maxLength: 24,
  });
  const anyText = fc.oneof(pathy, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 40 }));

  it('property: an accepted key never leaves the root, on POSIX or Windows, decoded or not', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const verdict = checkStorageKey(raw);
        if (verdict.kind === 'refused') return;
        const root = '/srv/disk';
        expect(resolve(root, verdict.key).startsWith(`${root}/`)).toBe(true);
        expect(posix.normalize(verdict.key)).toBe(verdict.key);
        // The same key on Windows: no separator but `/` there either, so no climbing out.
        const winRoot = 'C:\\disk';
        expect(win32.resolve(winRoot, verdict.key).startsWith(`${winRoot}\\`)).toBe(true);
        // Decoded once more (a proxy, a URL router): the same key, or no key at all (a lone `%`).
        expect(decodedOrSame(verdict.key)).toBe(verdict.key);
        expect(verdict.key.includes('\0')).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('property: a key with a ".." segment, a leading "/", a backslash or NUL is always refused', () => {
    const segment = fc.string({ unit: fc.constantFrom('a', 'b', '.', '-'), minLength: 1, maxLength: 6 });
    const bad = fc.oneof(
      fc.tuple(fc.array(segment, { maxLength: 3 }), fc.array(segment, { maxLength: 3 })).map(([a, b]) => [...a, '..', ...b].join('/')),
      segment.map((s) => `/${s}`),
      fc.tuple(segment, segment).map(([a, b]) => `${a}\\${b}`),
      fc.tuple(segment, segment).map(([a, b]) => `${a}\0${b}`),
    );
    fc.assert(
      fc.property(bad, (raw) => {
        expect(checkStorageKey(raw).kind).toBe('refused');
      }),
    );
  });

  it('property: never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(['ok', 'refused']).toContain(checkStorageKey(value).kind);
      }),
    );
  });
});
