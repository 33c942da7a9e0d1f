import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretKey } from '../../../../domain/shared/secret-key.js';

describe('secretKey', () => {
  it('makes one KeyObject per key', () => {
    const key = Buffer.alloc(32, 3);
    expect(secretKey(key)).toBe(secretKey(key));
    expect(secretKey(Buffer.alloc(32, 3))).not.toBe(secretKey(key));
  });

  it('signs exactly as the key bytes do', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.string(), (bytes, message) => {
        const key = Buffer.from(bytes);
        expect(createHmac('sha256', secretKey(key)).update(message).digest('hex')).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }),
    );
  });
});
