import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileFacts, readImageDimensions } from '../../../../adapters/http/uploads/file-facts.js';
import { gifBytes, pngHeader } from '../../../support/images.js';

const dir = mkdtempSync(join(tmpdir(), 'fw-file-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('file facts: the type from the bytes, an image size from the header', () => {
  it('reads a PNG\'s size from its header alone (no pixel data at all)', async () => {
    expect(await readImageDimensions(write('header-only.png', pngHeader(4000, 3000)))).toEqual({ width: 4000, height: 3000 });
  });

  it('reads a GIF\'s size, whatever follows the header (10 MB of anything)', async () => {
    const path = write('big.gif', gifBytes(12, 34, Buffer.alloc(10 * 1024 * 1024, 0xff)));
    expect(await readImageDimensions(path)).toEqual({ width: 12, height: 34 });
  });

  it('gives null for what is not an image, and for a damaged header', async () => {
    expect(await readImageDimensions(write('text.png', Buffer.from('not a picture')))).toBeNull();
    expect(await readImageDimensions(write('cut.png', pngHeader(10, 10).subarray(0, 12)))).toBeNull();
  });

  it.each([
    ['gif', gifBytes(1, 1), { sniffedType: 'image/gif', sniffedExtension: 'gif', dimensions: { width: 1, height: 1 } }],
    ['png', Buffer.concat([pngHeader(5, 7), Buffer.alloc(32)]), { sniffedType: 'image/png', sniffedExtension: 'png', dimensions: { width: 5, height: 7 } }],
    ['pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1'), { sniffedType: 'application/pdf', sniffedExtension: 'pdf', dimensions: null }],
    ['html named .png', Buffer.from('<html><script>alert(1)</script></html>'), { sniffedType: null, sniffedExtension: null, dimensions: null }],
    ['empty', Buffer.alloc(0), { sniffedType: null, sniffedExtension: null, dimensions: null }],
  ])('%s → its sniffed facts', async (name, bytes, expected) => {
    expect(await readFileFacts(write(`${name}.bin`, bytes))).toEqual(expected);
  });
});
