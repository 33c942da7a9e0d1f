import { verifySignedPath } from '../../../domain/http/signed-urls/signed-url.js';
import { checkStorageKey } from '../../../domain/storage/storage-key.js';
import type { Clock } from '../../../ports/clock.js';
import type { Storage } from '../../../ports/storage.js';
import { PublicFiles } from '../kernel/public-files.js';
import type { PublicFile } from '../kernel/public-files.js';
import { Download, mayShowInline } from '../kernel/replies.js';

/**
 * The storage routes' decisions, for every transport (hapi's routes in `storage-routes.ts`, the
 * fetch handler's stage 4): which disk and folder a request names, what is refused with which
 * status, and the headers of what is sent. The transports only read the request and write the
 * answer their own way.
 */

/** Where the framework serves a local disk's temporary links (the storage adapter signs the same paths). */
export const TEMPORARY_LINK_PATH = '/_fw/storage';
export const LINK_INVALID = 'This link is invalid or has expired.';

export interface StorageServingOptions {
  storage: Storage;
  /** Local public disks: the URL path their files are served under (`/storage`) and their folder. */
  publicFolders: readonly { urlPath: string; root: string }[];
  /** The key signed links are made with (derived from APP_KEY) and the clock that expires them. */
  signing: { key: Buffer; clock: Clock };
}

/** A refused storage request: its status and the sentence its error page shows (empty: the reason phrase). */
export interface StorageRefusal {
  readonly kind: 'refused';
  readonly status: 403 | 404;
  readonly detail: string;
}

const NOT_FOUND: StorageRefusal = { kind: 'refused', status: 404, detail: '' };
const LINK_REFUSED: StorageRefusal = { kind: 'refused', status: 403, detail: LINK_INVALID };

/**
 * A local public disk's files under its URL path, looked up with the framework's public-file
 * serving over the disk's folder: confined, no hidden files (a write in progress is a hidden file).
 */
export class PublicDisk {
  /** The URL path without a trailing slash: `/storage`. */
  readonly prefix: string;
  private readonly files: PublicFiles;

  constructor(folder: { urlPath: string; root: string }) {
    this.prefix = folder.urlPath.replace(/\/+$/u, '');
    this.files = new PublicFiles([folder.root], true);
  }

  /**
   * Whether a request path is this disk's: what hapi's `${prefix}/{key*}` route matches. A path
   * with a malformed escape is no disk's: the router refuses it with a 400, as hapi's does.
   */
  owns(path: string): boolean {
    return (path === this.prefix || path.startsWith(`${this.prefix}/`)) && decoded(path) !== null;
  }

  /** The file a request path of this disk names; 404 when there is none. */
  file(path: string): PublicFile | StorageRefusal {
    return this.files.lookup(path.slice(this.prefix.length)) ?? NOT_FOUND;
  }
}

/**
 * The headers a public disk's file is sent with, besides the ones of any file (type, length,
 * Last-Modified, ranges): revalidated on every use, and a download rather than a page when its
 * type could run script (an uploaded HTML or SVG file shown inline on the site's own origin could).
 */
export function publicDiskHeaders(contentType: string): Record<string, string> {
  const headers: Record<string, string> = { 'cache-control': 'public, max-age=0, must-revalidate' };
  if (!mayShowInline(contentType)) headers['content-disposition'] = 'attachment';
  return headers;
}

/** An opened temporary link: the object's bytes and the headers they are sent with. */
export interface OpenedLink {
  readonly kind: 'object';
  readonly stream: NodeJS.ReadableStream;
  readonly contentType: string;
  /** Bytes. */
  readonly size: number;
  readonly contentDisposition: string;
  readonly cacheControl: string;
}

/**
 * A temporary link's path as hapi's `${TEMPORARY_LINK_PATH}/{disk}/{key*}` route reads it,
 * decoded; null for another path, and for one with a malformed escape (the router refuses it
 * with a 400, as hapi's does).
 */
export function temporaryLinkParams(path: string): { disk: string; key: string | undefined } | null {
  const prefix = `${TEMPORARY_LINK_PATH}/`;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  const disk = decoded(slash === -1 ? rest : rest.slice(0, slash));
  const key = slash === -1 ? undefined : decoded(rest.slice(slash + 1));
  if (disk === null || disk === '' || key === null) return null;
  return { disk, key };
}

/** A path's percent-escapes undone; null when one is malformed (or escapes bytes that are not UTF-8). */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The temporary links of private disks. The signature is checked over the request target exactly
 * as sent (it covers the encoded path), before anything else: 403 when invalid or expired. Then
 * an unknown disk, a key that is no storage key (`../`) and a missing object are 404s.
 */
export class TemporaryLinks {
  constructor(private readonly options: Pick<StorageServingOptions, 'storage' | 'signing'>) {}

  async open(target: string, diskName: string, key: unknown): Promise<OpenedLink | StorageRefusal> {
    const now = Math.floor(this.options.signing.clock.now().getTime() / 1000);
    if (verifySignedPath(target, { now, key: this.options.signing.key }).kind !== 'valid') return LINK_REFUSED;
    const checked = checkStorageKey(key);
    if (!this.options.storage.names.includes(diskName) || checked.kind !== 'ok') return NOT_FOUND;
    const stored = await this.options.storage.disk(diskName).get(checked.key);
    if (stored === null) return NOT_FOUND;
    const download = Download.stream(stored.stream, checked.key, stored.contentType ?? 'application/octet-stream');
    return { kind: 'object', stream: stored.stream, contentType: download.contentType, size: stored.size, contentDisposition: download.contentDisposition(), cacheControl: 'private, no-store' };
  }
}
