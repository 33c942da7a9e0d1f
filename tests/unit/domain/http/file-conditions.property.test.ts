import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileEtag, fileNotModified, httpDateMs } from '../../../../domain/http/etag.js';

/** An opaque tag as a client may send it back: quoted, any characters but the quote, maybe weak. */
const tag = fc.tuple(fc.boolean(), fc.string({ unit: fc.constantFrom('a', 'f', '0', '9', '-', ',', ' ', 'é', '/'), maxLength: 12 })).map(([weak, text]) => `${weak ? 'W/' : ''}"${text}"`);
/** A file as the fetch transport stats it: size and mtime (to the millisecond or finer). */
const file = fc.record({ size: fc.nat(), mtimeMs: fc.double({ min: 0, max: 4_102_444_800_000, noNaN: true }) });
const separator = fc.constantFrom(',', ', ', ' ,', ' , ', ',\t');
/** Any instant a client may name, to the second, as an HTTP-date. */
const date = fc.integer({ min: 0, max: 4_102_444_800 }).map((seconds) => new Date(seconds * 1000).toUTCString());

describe('fileNotModified (properties)', () => {
  it('a GET is 304 exactly when some tag of any If-None-Match list is the file tag under weak comparison', () => {
    fc.assert(
      fc.property(file, fc.array(tag, { maxLength: 6 }), fc.nat(), fc.boolean(), separator, ({ size, mtimeMs }, others, at, weak, sep) => {
        const etag = fileEtag(size, mtimeMs);
        const without = others.filter((other) => other.replace(/^W\//u, '') !== etag);
        expect(fileNotModified({ method: 'GET', etag, modifiedMs: mtimeMs, ifNoneMatch: without.join(sep), ifModifiedSince: undefined })).toBe(false);
        const list = [...without];
        list.splice(at % (list.length + 1), 0, weak ? `W/${etag}` : etag);
        expect(fileNotModified({ method: 'GET', etag, modifiedMs: mtimeMs, ifNoneMatch: list.join(sep), ifModifiedSince: undefined })).toBe(true);
      }),
    );
  });

  it('If-None-Match, when sent, decides alone: any If-Modified-Since beside it changes nothing', () => {
    fc.assert(
      fc.property(file, fc.array(tag, { maxLength: 4 }), date, ({ size, mtimeMs }, tags, since) => {
        const etag = fileEtag(size, mtimeMs);
        const ifNoneMatch = tags.join(', ');
        const alone = fileNotModified({ method: 'GET', etag, modifiedMs: mtimeMs, ifNoneMatch, ifModifiedSince: undefined });
        expect(fileNotModified({ method: 'GET', etag, modifiedMs: mtimeMs, ifNoneMatch, ifModifiedSince: since })).toBe(alone);
      }),
    );
  });

  it('If-Modified-Since alone: 304 exactly when the file is not newer than the date, to the second', () => {
    fc.assert(
      fc.property(file, date, ({ size, mtimeMs }, since) => {
        const lastModified = new Date(mtimeMs).toUTCString();
        const expected = Date.parse(lastModified) <= Date.parse(since);
        expect(fileNotModified({ method: 'HEAD', etag: fileEtag(size, mtimeMs), modifiedMs: mtimeMs, ifNoneMatch: undefined, ifModifiedSince: since })).toBe(expected);
        // Its own Last-Modified sent back is always current.
        expect(fileNotModified({ method: 'GET', etag: null, modifiedMs: mtimeMs, ifNoneMatch: undefined, ifModifiedSince: lastModified })).toBe(true);
      }),
    );
  });

  it('only GET and HEAD are ever 304', () => {
    fc.assert(
      fc.property(file, fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'post'), ({ size, mtimeMs }, method) => {
        const etag = fileEtag(size, mtimeMs);
        expect(fileNotModified({ method, etag, modifiedMs: mtimeMs, ifNoneMatch: etag, ifModifiedSince: undefined })).toBe(false);
        expect(fileNotModified({ method, etag, modifiedMs: mtimeMs, ifNoneMatch: undefined, ifModifiedSince: new Date(mtimeMs).toUTCString() })).toBe(false);
      }),
    );
  });

  it('httpDateMs reads back every date toUTCString writes', () => {
    fc.assert(
      fc.property(date, (text) => {
        expect(httpDateMs(text)).toBe(Date.parse(text));
      }),
    );
  });
});
