import { Readable } from 'node:stream';
import { buffer as readBytes, text as readText } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { UnsafeStorageKey } from '../../domain/storage/storage-key.js';
import type { StorageDisk } from '../../ports/storage.js';

export interface DiskUnderTest {
  disk: StorageDisk;
  /** Opens a URL the disk made (its temporary link, or a public URL) over a real socket. */
  open(url: string): Promise<Response>;
  /** Whether nothing was written outside the disk (a local folder's siblings); S3 has no outside. */
  nothingOutside(): boolean;
  /**
   * Whether the server behind the disk checks a link's signature. The local routes do; s3rver,
   * the S3-compatible test server, does not verify SigV4 at all (its source: "Signature version
   * 4 calculation is unimplemented"), so on S3 the refusal of altered links is AWS's promise,
   * not something these tests can show.
   */
  signaturesChecked: boolean;
}

/** A stream that sends one chunk and then fails: an upload cut off half way. */
function failingStream(): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield Buffer.from('first half');
    await Promise.resolve();
    throw new Error('connection lost');
  })();
}

const UNSAFE = ['../escape.txt', '/etc/passwd', 'a/../../b', 'a\\..\\b', 'nul\0.txt', '%2e%2e/x', 'C:/x', 'a//b', ''];

/**
 * What every storage disk does, run against the local private disk, the local public disk and
 * the S3 disk (on a real S3-compatible server), so an app can move between them by a setting.
 */
export function storageContract(name: string, fresh: () => DiskUnderTest): void {
  describe(`Storage disk contract: ${name}`, () => {
    it('put then get gives the same bytes and size, for bytes, text and streams', async () => {
      const { disk } = fresh();
      const bytes = Buffer.from([0, 1, 2, 255, 254]);
      await disk.put('bin/data.bin', bytes);
      await disk.put('text/hello.txt', 'héllo');
      await disk.put('stream/parts.txt', Readable.from([Buffer.from('one '), Buffer.from('two')]));
      const bin = await disk.get('bin/data.bin');
      expect(bin?.size).toBe(5);
      expect(await readBytes(bin!.stream)).toEqual(bytes);
      expect(await readText((await disk.get('text/hello.txt'))!.stream)).toBe('héllo');
      expect(await readText((await disk.get('stream/parts.txt'))!.stream)).toBe('one two');
      expect(await disk.size('text/hello.txt')).toBe(6);
    });

    it('put replaces a file; exists, size and delete see it come and go', async () => {
      const { disk } = fresh();
      expect(await disk.exists('doc.txt')).toBe(false);
      expect(await disk.size('doc.txt')).toBeNull();
      expect(await disk.get('doc.txt')).toBeNull();
      await disk.put('doc.txt', 'version one');
      await disk.put('doc.txt', 'v2');
      expect(await disk.exists('doc.txt')).toBe(true);
      expect(await readText((await disk.get('doc.txt'))!.stream)).toBe('v2');
      expect(await disk.delete('doc.txt')).toBe(true);
      expect(await disk.delete('doc.txt')).toBe(false);
      expect(await disk.exists('doc.txt')).toBe(false);
    });

    it('a folder-like prefix is no file', async () => {
      const { disk } = fresh();
      await disk.put('reports/2026/jan.csv', 'a,b');
      expect(await disk.exists('reports/2026')).toBe(false);
      expect(await disk.get('reports')).toBeNull();
    });

    it('a write that fails half way leaves no file, and keeps the one it was replacing', async () => {
      const { disk } = fresh();
      await expect(disk.put('cut.txt', failingStream())).rejects.toThrow();
      expect(await disk.exists('cut.txt')).toBe(false);
      await disk.put('kept.txt', 'whole');
      await expect(disk.put('kept.txt', failingStream())).rejects.toThrow();
      expect(await readText((await disk.get('kept.txt'))!.stream)).toBe('whole');
    });

    it.each(UNSAFE)('every operation refuses the unsafe key %j before touching anything', async (key) => {
      const under = fresh();
      const { disk } = under;
      await expect(disk.put(key, 'x')).rejects.toThrow(UnsafeStorageKey);
      await expect(disk.get(key)).rejects.toThrow(UnsafeStorageKey);
      await expect(disk.exists(key)).rejects.toThrow(UnsafeStorageKey);
      await expect(disk.size(key)).rejects.toThrow(UnsafeStorageKey);
      await expect(disk.delete(key)).rejects.toThrow(UnsafeStorageKey);
      await expect(async () => disk.temporaryUrl(key, 60)).rejects.toThrow(UnsafeStorageKey);
      expect(under.nothingOutside()).toBe(true);
    });

    it('a temporary link opens the file over a socket; one altered to name another file, or with another signature, does not', async () => {
      const under = fresh();
      await under.disk.put('private/report one.txt', 'secret figures', { contentType: 'text/plain' });
      await under.disk.put('private/report two.txt', 'other figures', { contentType: 'text/plain' });
      const link = await under.disk.temporaryUrl('private/report one.txt', 300);
      const opened = await under.open(link);
      expect([opened.status, await opened.text()]).toEqual([200, 'secret figures']);
      if (!under.signaturesChecked) return;
      const otherFile = link.replace('report%20one', 'report%20two');
      expect(otherFile).not.toBe(link);
      const refused = await under.open(otherFile);
      expect(refused.status).not.toBe(200);
      expect(await refused.text()).not.toContain('other figures');
      const forged = link.replace(/([Ss]ignature=[0-9a-f]*)[0-9a-f]/u, (_all, head: string) => `${head}${link.endsWith('0') ? '1' : '0'}`);
      expect(forged).not.toBe(link);
      expect((await under.open(forged)).status).toBe(403);
    });

    it('url() is the lasting public address on a public disk, and refused on a private one', async () => {
      const under = fresh();
      await under.disk.put('pics/a b.txt', 'public bytes');
      if (under.disk.visibility === 'private') {
        expect(() => under.disk.url('pics/a b.txt')).toThrow(/private/u);
        return;
      }
      const url = under.disk.url('pics/a b.txt');
      expect(url).toMatch(/\/pics\/a%20b\.txt$/u);
      const opened = await under.open(url);
      expect([opened.status, await opened.text()]).toEqual([200, 'public bytes']);
    });
  });
}
