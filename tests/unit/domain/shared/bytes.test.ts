import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64url, bytesAsBuffer } from '../../../../domain/shared/bytes.js';

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

describe('base64url', () => {
  it('encodes exactly the bytes of a view, not the rest of its memory (RFC 4648 §5, no padding)', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xfe]).subarray(1))).toBe('__4');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 64 }), fc.nat(8), (all, start) => {
        const bytes = all.subarray(Math.min(start, all.length));
        expect(base64url(bytes)).toBe(Buffer.from([...bytes]).toString('base64url'));
      }),
    );
  });
});
