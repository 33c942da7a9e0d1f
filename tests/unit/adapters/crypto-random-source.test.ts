import { describe, expect, it } from 'vitest';
import { CryptoRandomSource } from '../../../adapters/random/crypto-random-source.js';

describe('CryptoRandomSource', () => {
  it('gives the length asked for, large and small, and never the same bytes twice', () => {
    const random = new CryptoRandomSource();
    const seen = new Set<string>();
    for (let n = 0; n < 2000; n++) {
      const bytes = random.bytes(16);
      expect(bytes).toHaveLength(16);
      seen.add(Buffer.from(bytes).toString('hex'));
    }
    expect(seen.size).toBe(2000);
    expect(random.bytes(5000)).toHaveLength(5000);
    expect(random.bytes(0)).toHaveLength(0);
  });

  it('hands out copies: changing one changes nothing else', () => {
    const random = new CryptoRandomSource();
    const first = random.bytes(32);
    const copy = Buffer.from(first);
    first.fill(0);
    expect(Buffer.from(random.bytes(32)).equals(copy)).toBe(false);
  });

  it('looks uniform: every byte value turns up about equally often', () => {
    const counts = new Array<number>(256).fill(0);
    const random = new CryptoRandomSource();
    for (let n = 0; n < 256 * 200 / 32; n++) for (const byte of random.bytes(32)) counts[byte] = (counts[byte] ?? 0) + 1;
    // 200 expected per value; a CSPRNG stays far inside these bounds.
    expect(Math.min(...counts)).toBeGreaterThan(120);
    expect(Math.max(...counts)).toBeLessThan(290);
  });

  it('refuses a length that is not a whole number', () => {
    expect(() => new CryptoRandomSource().bytes(-1)).toThrow(TypeError);
    expect(() => new CryptoRandomSource().bytes(1.5)).toThrow(TypeError);
  });
});
