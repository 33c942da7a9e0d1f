import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Upload } from '../../../../adapters/http/uploads/upload.js';
import type { StorageDisk } from '../../../../ports/storage.js';

/** A disk that records the type each file is stored with. */
function recordingDisk(): { disk: StorageDisk; types: string[] } {
  const types: string[] = [];
  const disk = {
    put: (_key: string, body: NodeJS.ReadableStream, options?: { contentType?: string }) => {
      types.push(options?.contentType ?? '');
      body.resume();
      return new Promise<void>((resolve) => body.on('end', () => resolve()));
    },
  } as unknown as StorageDisk;
  return { disk, types };
}

function uploadOf(sniffedType: string | null): Upload {
  const path = join(mkdtempSync(join(tmpdir(), 'fw-upload-store-')), 'file.upload');
  writeFileSync(path, 'bytes');
  return new Upload({ field: 'file', originalName: 'x', clientType: 'image/png', size: 5, path, sniffedType, sniffedExtension: null, dimensions: null });
}

describe('Upload.store', () => {
  it.each([
    ['image/png', 'image/png'],
    ['application/pdf', 'application/pdf'],
    ['application/xml', 'application/octet-stream'],
    ['image/svg+xml', 'application/octet-stream'],
    ['text/html', 'application/octet-stream'],
    ['application/xhtml+xml', 'application/octet-stream'],
    ['text/javascript', 'application/octet-stream'],
    [null, 'application/octet-stream'],
  ])('a file sniffed as %j is stored as %j (a script-capable type never reaches a disk that serves as stored)', async (sniffed, stored) => {
    const { disk, types } = recordingDisk();
    await uploadOf(sniffed).store(disk, 'uploads/a');
    expect(types).toEqual([stored]);
  });
});
