import { randomFillSync } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';
import { MisuseError } from '../../domain/shared/errors.js';

const POOL_BYTES = 4096;

/**
 * The operating system's CSPRNG, drawn in 4 KB blocks. A request needs several small values
 * (a CSP nonce, a request id, a session token, iron's IV); one system call per value was the
 * largest cost of the framework's own on `/health` (bench/http-kernel.bench.ts). Handing out
 * unused bytes of a block is as safe as asking for them one by one: Node's `randomUUID` does
 * the same. Each byte is handed out once, and every caller gets a copy.
 */
export class CryptoRandomSource implements RandomSource {
  private pool = Buffer.alloc(0);
  private offset = 0;

  bytes(length: number): Uint8Array {
    if (!Number.isInteger(length) || length < 0) throw new MisuseError('random.bad-length', `length must be a whole number, got ${length}`);
    if (length > POOL_BYTES / 4) return randomFillSync(Buffer.alloc(length));
    if (this.offset + length > this.pool.length) {
      this.pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
      this.offset = 0;
    }
    // A copy (TypedArray slice keeps Buffer's species), without node's array-like path.
    const slice = Uint8Array.prototype.slice.call(this.pool, this.offset, this.offset + length) as Buffer;
    // Wipe what was handed out, so no later reader of the pool sees it again.
    this.pool.fill(0, this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
}
