import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../../../domain/http/bearer.js';
import { apiTokenHash, formatApiToken, parseApiToken } from '../../../../domain/security/api-token.js';

describe('bearerToken', () => {
  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['Basic dXNlcjpwYXNz', null],
    ['Bearer abc.DEF-123_~+/=', 'abc.DEF-123_~+/='],
    ['bearer   12|secret', '12|secret'],
    ['Bearer', ''],
    ['Bearer ', ''],
    ['Bearer two words', ''],
    ['Bearer <script>', ''],
    [`Bearer ${'a'.repeat(5000)}`, ''],
    ['Bearerish token', null],
  ])('%s → %s', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});

describe('database API tokens', () => {
  it('round-trips id and secret, and refuses other shapes', () => {
    const token = formatApiToken(42, new Uint8Array(40).fill(7));
    expect(parseApiToken(token)).toEqual({ id: 42, secret: token.split('|')[1] });
    for (const bad of ['42', '0|' + 'a'.repeat(54), '42|short', `42|${'a'.repeat(54)}x`, `-1|${'a'.repeat(54)}`]) expect(parseApiToken(bad)).toBeNull();
  });

  it('stores a one-way hash of the secret', () => {
    expect(apiTokenHash('secret')).toMatch(/^[0-9a-f]{64}$/u);
    expect(apiTokenHash('secret')).not.toContain('secret');
  });
});
