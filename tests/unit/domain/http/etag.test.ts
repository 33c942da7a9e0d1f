import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskToken, padLength } from '../../../../domain/http/csrf-mask.js';
import { ETAG_MAX_BODY_BYTES, etagEligible, etagFor, fileEtag, fileNotModified, httpDateMs, ifNoneMatchMatches, rangeStillValid } from '../../../../domain/http/etag.js';

const NONCE_A = 'AAAAbbbbCCCCdddd0123';
const NONCE_B = 'ZZZZyyyyXXXXwwww9876';
const page = (nonce: string) => `<html><script nonce="${nonce}">go()</script><style nonce="${nonce}"></style></html>`;

describe('etagFor', () => {
  it('is a quoted, strong, base64url SHA-256 prefix of the body', () => {
    const expected = createHash('sha256').update('hello').digest('base64url').slice(0, 22);
    expect(etagFor('hello', null)).toBe(`"${expected}"`);
    expect(etagFor('hello', null)).toMatch(/^"[A-Za-z0-9_-]{22}"$/u);
  });

  it.each<[string, Uint8Array | string, string | null, Uint8Array | string, string | null, boolean]>([
    ['a string and its UTF-8 bytes', 'héllo', null, new TextEncoder().encode('héllo'), null, true],
    ['one page with two nonces', page(NONCE_A), NONCE_A, page(NONCE_B), NONCE_B, true],
    ['a page with its nonce and the page without it', page(NONCE_A), NONCE_A, page(''), null, true],
    ['the nonce ignored only when given', page(NONCE_A), null, page(NONCE_B), null, false],
    ['different content', page(NONCE_A).replace('go', 'stop'), NONCE_A, page(NONCE_B), NONCE_B, false],
    ['a nonce that does not occur', 'same body', NONCE_A, 'same body', null, true],
    ['an empty body', '', NONCE_A, '', null, true],
    ['a byte view into a larger buffer', new TextEncoder().encode('xxbodyxx').subarray(2, 6), null, 'body', null, true],
  ])('%s: equal is %s', (_name, left, leftNonce, right, rightNonce, equal) => {
    expect(etagFor(left, leftNonce) === etagFor(right, rightNonce)).toBe(equal);
  });

  it('refuses an empty nonce (null means none)', () => {
    expect(() => etagFor('x', '')).toThrow(TypeError);
  });

  const nonce = fc.stringMatching(/^[A-Za-z0-9+/]{16,24}$/u);

  it('gives one ETag for one body whatever nonces sit in the same places', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), nonce, nonce, (pieces, first, second) => {
        // Skip the (for real nonces negligible) cases where the content itself forms the nonce.
        const splitsBack = (n: string) => JSON.stringify(pieces.join(n).split(n)) === JSON.stringify(pieces);
        fc.pre(splitsBack(first) && splitsBack(second));
        expect(etagFor(pieces.join(first), first)).toBe(etagFor(pieces.join(second), second));
      }),
    );
  });

  it('hashes a masked CSRF token as the session token it stands for: one ETag per page and session', () => {
    const sessionA = 'k3Jq9x2VbT0aZr7mW1nPq8sLc4dYf6gH5uE0iO2pAa';
    const sessionB = 'k3Jq9x2VbT0aZr7mW1nPq8sLc4dYf6gH5uE0iO2pAb';
    const mask = (token: string) => maskToken(token, randomBytes(padLength(token)));
    const body = (nonce: string, token: string) => `<meta name="csrf-token" content="${token}"><script nonce="${nonce}"></script><input name="_token" value="${token}">`;
    const tag = (nonce: string, session: string) => {
      const printed = mask(session);
      return etagFor(body(nonce, printed), nonce, { printed, session });
    };
    expect(tag(NONCE_A, sessionA)).toBe(tag(NONCE_B, sessionA));
    expect(tag(NONCE_A, sessionA)).not.toBe(tag(NONCE_A, sessionB));
    // Without the printed token given, the mask makes every response's tag differ.
    const printed = mask(sessionA);
    expect(etagFor(body(NONCE_A, printed), NONCE_A)).not.toBe(etagFor(body(NONCE_A, mask(sessionA)), NONCE_A));
    expect(() => etagFor('x', null, { printed: '', session: sessionA })).toThrow(TypeError);
  });

  it('gives different bodies different ETags', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (left, right) => {
        fc.pre(Buffer.compare(Buffer.from(left), Buffer.from(right)) !== 0);
        expect(etagFor(left, null)).not.toBe(etagFor(right, null));
      }),
    );
  });
});

describe('etagEligible', () => {
  it.each([
    ['GET', 200, 10, true],
    ['HEAD', 200, 0, true],
    ['get', 200, 10, true],
    ['GET', 200, ETAG_MAX_BODY_BYTES, true],
    ['GET', 200, ETAG_MAX_BODY_BYTES + 1, false],
    ['POST', 200, 10, false],
    ['PUT', 200, 10, false],
    ['GET', 201, 10, false],
    ['GET', 206, 10, false],
    ['GET', 404, 10, false],
    ['GET', 304, 0, false],
  ])('%s %d with %d bytes → %s', (method, status, bodyBytes, expected) => {
    expect(etagEligible({ method, status, bodyBytes })).toBe(expected);
  });

  it('2 MB is 2 MiB', () => {
    expect(ETAG_MAX_BODY_BYTES).toBe(2_097_152);
  });
});

describe('ifNoneMatchMatches', () => {
  const tag = '"abc"';
  it.each<[string | undefined, string, boolean]>([
    ['"abc"', tag, true],
    ['W/"abc"', tag, true],
    ['"abc"', 'W/"abc"', true],
    ['"x", "abc"', tag, true],
    ['"x","abc" ,"y"', tag, true],
    ['  "abc"  ', tag, true],
    ['\t"x",\t W/"abc"', tag, true],
    ['*', tag, true],
    [' * ', tag, true],
    ['"a,b", "abc"', tag, true],
    ['"a,b"', '"a,b"', true],
    ['"x", , "abc",', tag, true],
    ['"abcd"', tag, false],
    ['"ab"', tag, false],
    ['"ABC"', tag, false],
    ['abc', tag, false],
    ['"abc', tag, false],
    ['w/"abc"', tag, false],
    ['"x" "abc"', tag, false],
    ['"x"junk, "abc"', tag, false],
    ['"x", *', tag, false],
    ['', tag, false],
    [undefined, tag, false],
  ])('%j against %s → %s', (header, etag, expected) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(expected);
  });

  it('matches the ETag it made, also as a weak tag among others', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.uint8Array({ maxLength: 8 }).map((b) => etagFor(b, null))), (body, others) => {
        const etag = etagFor(body, null);
        expect(ifNoneMatchMatches([...others, `W/${etag}`].join(', '), etag)).toBe(true);
        expect(ifNoneMatchMatches(others.join(', '), etag)).toBe(others.includes(etag));
      }),
    );
  });
});

describe('file validators', () => {
  const MODIFIED = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT') + 250;
  const ETAG = fileEtag(1234, MODIFIED);
  const judge = (headers: { ifNoneMatch?: string; ifModifiedSince?: string }, method = 'GET', etag: string | null = ETAG) =>
    fileNotModified({ method, etag, modifiedMs: MODIFIED, ifNoneMatch: headers.ifNoneMatch, ifModifiedSince: headers.ifModifiedSince });

  it('fileEtag is a strong tag of the size and the whole milliseconds of the mtime, in hex', () => {
    expect(fileEtag(255, 4096.7)).toBe('"ff-1000"');
    expect(fileEtag(0, 0)).toBe('"0-0"');
    expect(fileEtag(1234, MODIFIED)).not.toBe(fileEtag(1234, MODIFIED + 1));
    expect(fileEtag(1234, MODIFIED)).not.toBe(fileEtag(1235, MODIFIED));
  });

  it.each<[string, { ifNoneMatch?: string; ifModifiedSince?: string }, boolean]>([
    ['no validator', {}, false],
    ['the tag', { ifNoneMatch: ETAG }, true],
    ['the tag, weak', { ifNoneMatch: `W/${ETAG}` }, true],
    ['the tag in a list', { ifNoneMatch: `"a", ${ETAG}` }, true],
    ['*', { ifNoneMatch: ' * ' }, true],
    ['another tag', { ifNoneMatch: '"other"' }, false],
    ['a list that does not parse', { ifNoneMatch: `${ETAG} junk` }, false],
    ['the file time (to the second)', { ifModifiedSince: 'Sun, 06 Nov 1994 08:49:37 GMT' }, true],
    ['a later time', { ifModifiedSince: 'Sun, 06 Nov 1994 08:49:38 GMT' }, true],
    ['an earlier time', { ifModifiedSince: 'Sun, 06 Nov 1994 08:49:36 GMT' }, false],
    ['the RFC 850 form', { ifModifiedSince: 'Sunday, 06-Nov-94 08:49:37 GMT' }, true],
    ['the asctime form', { ifModifiedSince: 'Sun Nov  6 08:49:37 1994' }, true],
    ['a date that is no HTTP-date', { ifModifiedSince: '1994-11-06T08:49:37Z' }, false],
    ['no date at all', { ifModifiedSince: 'yesterday' }, false],
    ['another tag with a current date: If-None-Match wins', { ifNoneMatch: '"other"', ifModifiedSince: 'Sun, 06 Nov 1994 08:49:37 GMT' }, false],
    ['the tag with an old date: If-None-Match wins', { ifNoneMatch: ETAG, ifModifiedSince: 'Sun, 06 Nov 1994 08:00:00 GMT' }, true],
  ])('GET with %s: 304 is %s', (_name, headers, expected) => {
    expect(judge(headers)).toBe(expected);
    expect(judge(headers, 'head')).toBe(expected);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s is never answered 304', (method) => {
    expect(judge({ ifNoneMatch: ETAG }, method)).toBe(false);
    expect(judge({ ifModifiedSince: 'Sun, 06 Nov 1994 08:49:37 GMT' }, method)).toBe(false);
  });

  it('a file without an ETag (Download.file): If-None-Match matches only *, If-Modified-Since decides alone', () => {
    expect(judge({ ifNoneMatch: ETAG }, 'GET', null)).toBe(false);
    expect(judge({ ifNoneMatch: '*' }, 'GET', null)).toBe(true);
    expect(judge({ ifModifiedSince: 'Sun, 06 Nov 1994 08:49:37 GMT' }, 'GET', null)).toBe(true);
  });

  it('rangeStillValid: a Range is served without If-Range or when it is the strong ETag itself', () => {
    expect(rangeStillValid(undefined, ETAG)).toBe(true);
    expect(rangeStillValid(undefined, null)).toBe(true);
    expect(rangeStillValid(ETAG, ETAG)).toBe(true);
    expect(rangeStillValid(`W/${ETAG}`, ETAG)).toBe(false);
    expect(rangeStillValid('W/"x"', 'W/"x"')).toBe(false);
    expect(rangeStillValid('"other"', ETAG)).toBe(false);
    expect(rangeStillValid('Sun, 06 Nov 1994 08:49:37 GMT', ETAG)).toBe(false);
    expect(rangeStillValid(ETAG, null)).toBe(false);
  });

  it('httpDateMs reads the three HTTP-date forms as GMT and refuses anything else', () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'].map(httpDateMs)).toEqual([ms, ms, ms]);
    expect(['', '1', 'Sun, 06 Nov 1994', 'Sun, 06 Nov 1994 08:49:37 PST'].map(httpDateMs)).toEqual([null, null, null, null]);
  });
});
