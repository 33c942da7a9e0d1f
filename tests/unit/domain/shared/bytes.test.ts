import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesAsBuffer } from '../../../../domain/shared/bytes.js';

describe('bytesAsBuffer', () => {
  it('hands a Buffer back as it is, without a copy', () => {
    const buffer = Buffer.from([1, 2, 3]);
    expect(bytesAsBuffer(buffer)).toBe(buffer);
  });

  it('gives other bytes a view on their own memory, offset and length kept', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 64 }), fc.nat(16), fc.nat(16), (all, start, cut) => {
        const from = Math.min(start, all.length);
        const bytes = all.subarray(from, Math.max(from, all.length - cut));
        const view = bytesAsBuffer(bytes);
        expect([...view]).toEqual([...bytes]);
        if (bytes.length > 0) {
          // The same memory: a change through the view shows in the bytes.
          view[0] = (view[0] ?? 0) ^ 0xff;
          expect(bytes[0]).toBe(view[0]);
        }
      }),
    );
  });
});
