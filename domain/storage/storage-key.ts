import { FrameworkError } from '../shared/errors.js';

/**
 * A storage key names a file inside a disk: `avatars/7/photo.jpg`. It is a relative path of
 * plain segments joined by `/`, so that no key, however it was made (a user's file name, an
 * id from a URL), can name anything outside the disk's root, on a local folder or a bucket.
 *
 * Refused rather than cleaned up: a key that would need cleaning is a bug or an attack, and
 * silently changing it would store one file under another's name.
 */
export type StorageKeyVerdict = { readonly kind: 'ok'; readonly key: string } | { readonly kind: 'refused'; readonly why: string };

/** Longest key, in UTF-8 bytes: S3's own limit. */
export const MAX_KEY_BYTES = 1024;
/** Longest segment, in UTF-8 bytes: what common file systems allow for one name. */
export const MAX_SEGMENT_BYTES = 255;

// Controls (C0, DEL, C1): NUL ends a path in C, the others break logs and headers.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
/** `%2e%2e%2f` and friends: a key that is decoded once more somewhere would climb out. */
const PERCENT_ENCODED = /%[0-9a-f]{2}/iu;
/** `C:` at the start is a drive on Windows: an absolute path there. */
const DRIVE = /^[a-z]:/iu;
/** Half of a UTF-16 pair: no file system or URL can carry it. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Windows ignores trailing dots and spaces, so `.. ` and `...` can mean `..` there. */
const ONLY_DOTS_AND_SPACES = /^[. ]+$/u;

function refused(why: string): StorageKeyVerdict {
  return { kind: 'refused', why };
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function checkStorageKey(raw: unknown): StorageKeyVerdict {
  if (typeof raw !== 'string') return refused('is not text');
  if (raw === '') return refused('is empty');
  if (LONE_SURROGATE.test(raw)) return refused('holds a lone surrogate');
  if (utf8Length(raw) > MAX_KEY_BYTES) return refused(`is longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL.test(raw)) return refused('holds a control character (NUL, newline…)');
  if (raw.includes('\\')) return refused('holds a backslash (a Windows separator)');
  if (raw.startsWith('/')) return refused('is absolute (starts with /)');
  if (DRIVE.test(raw)) return refused('starts with a drive letter');
  if (PERCENT_ENCODED.test(raw)) return refused('holds a percent-encoded character');
  for (const segment of raw.split('/')) {
    if (segment === '') return refused('has an empty segment (// or a trailing /)');
    if (ONLY_DOTS_AND_SPACES.test(segment)) return refused(`has a "${segment}" segment`);
    if (segment !== segment.trim()) return refused('has a segment starting or ending with a space');
    if (utf8Length(segment) > MAX_SEGMENT_BYTES) return refused(`has a segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  return { kind: 'ok', key: raw };
}

export class UnsafeStorageKey extends FrameworkError {
  constructor(
    readonly key: unknown,
    why: string,
  ) {
    super('storage.unsafe-key', `Storage key ${JSON.stringify(String(key)).slice(0, 80)} ${why}`);
  }
}

/** The key itself when it is safe; throws `UnsafeStorageKey` otherwise. */
export function safeStorageKey(raw: unknown): string {
  const verdict = checkStorageKey(raw);
  if (verdict.kind === 'refused') throw new UnsafeStorageKey(raw, verdict.why);
  return verdict.key;
}

/** The segments of a key made safe by `safeStorageKey`, for joining onto a folder. */
export function keySegments(key: string): string[] {
  return safeStorageKey(key).split('/');
}
