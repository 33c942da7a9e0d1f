import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MULTIPART_LIMITS, MultipartError, parseMultipart, sweepStaleUploads } from '../../../../adapters/http/uploads/multipart.js';
import { Upload, uploadIn, uploadsIn } from '../../../../adapters/http/uploads/upload.js';
import { gifBytes, multipartBody } from '../../../support/images.js';

const tempDir = mkdtempSync(join(tmpdir(), 'fw-multipart-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
const limits = { ...DEFAULT_MULTIPART_LIMITS, maxBytes: 64 * 1024 };

/** The parser over a plain stream, no HTTP server: what any transport hands it. */
function parse(form: { body: Buffer; contentType: string }, chunk = 7) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < form.body.length; at += chunk) pieces.push(form.body.subarray(at, at + chunk));
  return parseMultipart(Readable.from(pieces), { 'content-type': form.contentType }, { tempDir, limits });
}

describe('the multipart parser over any byte stream', () => {
  it('gives text fields (repeated names as lists) and files as Uploads in temporary files, until cleanup', async () => {
    const gif = gifBytes(3, 4);
    const parsed = await parse(multipartBody({ title: 'x', 'tags[]': 'a' }, [{ name: 'photo', filename: 'p.gif', bytes: gif }, { name: 'photo', filename: 'q.gif', bytes: gif }]));
    expect(parsed.fields['title']).toBe('x');
    const photos = parsed.fields['photo'];
    expect(Array.isArray(photos) && photos.every((photo) => photo instanceof Upload)).toBe(true);
    const [first] = parsed.uploads;
    expect([first?.originalName, first?.size, first?.sniffedType, first?.dimensions]).toEqual(['p.gif', gif.length, 'image/gif', { width: 3, height: 4 }]);
    expect(readFileSync(first?.path ?? '')).toEqual(gif);
    expect(uploadIn(parsed.fields, 'photo')).toBe(first);
    expect(uploadsIn(parsed.fields, 'photo')).toEqual(parsed.uploads);
    expect([uploadIn(parsed.fields, 'title'), uploadIn(parsed.fields, 'none'), uploadIn(null, 'photo'), uploadsIn('text', 'photo')]).toEqual([null, null, null, []]);
    await parsed.cleanup();
    expect(parsed.uploads.some((upload) => existsSync(upload.path))).toBe(false);
  });

  it.each([
    ['no boundary', { body: Buffer.from('x'), contentType: 'multipart/form-data' }, 'malformed'],
    ['cut short', { ...multipartBody({}, [{ name: 'f', filename: 'f', bytes: Buffer.alloc(1000) }]), cut: true }, 'malformed'],
    ['over the limit', multipartBody({}, [{ name: 'f', filename: 'f', bytes: Buffer.alloc(64 * 1024 + 1) }]), 'too-large'],
    ['a field over its limit', multipartBody({ big: 'x'.repeat(DEFAULT_MULTIPART_LIMITS.maxFieldBytes + 1) }, []), 'too-large'],
  ])('refuses a body %s, leaving no file', async (_name, form, reason) => {
    const body = 'cut' in form ? form.body.subarray(0, form.body.length - 200) : form.body;
    const error: unknown = await parse({ body, contentType: form.contentType }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(MultipartError);
    expect((error as MultipartError).reason).toBe(reason);
    expect(readdirSync(tempDir)).toEqual([]);
  });
});

describe('a client that stalls', () => {
  it('takes fields named like members of Object (constructor, toString, __proto__) as plain text fields', async () => {
    const parsed = await parse(multipartBody({ constructor: 'a', toString: 'b', __proto__: 'c', hasOwnProperty: 'd' }, []));
    expect(new Map(Object.entries(parsed.fields))).toEqual(new Map([['constructor', 'a'], ['toString', 'b'], ['hasOwnProperty', 'd']]));
    expect(Object.getPrototypeOf(parsed.fields)).toBeNull();
    await parsed.cleanup();
  });

  it('gets a timeout once no byte came for idleTimeoutMs, and its file is removed', async () => {
    const form = multipartBody({}, [{ name: 'f', filename: 'f.bin', bytes: Buffer.alloc(5000, 1) }]);
    // Sends half, then nothing, never ending: a slow-loris upload.
    const stalled = new Readable({ read() {} });
    stalled.push(form.body.subarray(0, 2500));
    const error: unknown = await parseMultipart(stalled, { 'content-type': form.contentType }, { tempDir, limits: { ...limits, idleTimeoutMs: 50 } }).catch(
      (failure: unknown) => failure,
    );
    expect([(error as MultipartError).reason, (error as MultipartError).status]).toEqual(['timeout', 408]);
    expect(readdirSync(tempDir)).toEqual([]);
    stalled.destroy();
  });
});

describe('sweeping a crashed process\'s leftovers', () => {
  it('removes only the parser\'s own files older than the age given', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fw-sweep-'));
    const now = new Date('2026-11-24T12:00:00Z');
    const old = new Date('2026-11-24T10:00:00Z');
    for (const name of ['old.upload', 'fresh.upload', 'old.other']) writeFileSync(join(folder, name), 'x');
    utimesSync(join(folder, 'old.upload'), old, old);
    utimesSync(join(folder, 'old.other'), old, old);
    utimesSync(join(folder, 'fresh.upload'), now, now);
    expect(await sweepStaleUploads(folder, 60 * 60 * 1000, now)).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['fresh.upload', 'old.other']);
    expect(await sweepStaleUploads(join(folder, 'missing'), 1, now)).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });
});
