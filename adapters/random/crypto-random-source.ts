import { randomBytes } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';

export class CryptoRandomSource implements RandomSource {
  bytes(length: number): Uint8Array {
    return randomBytes(length);
  }
}
