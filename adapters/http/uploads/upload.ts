import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { safeStorageKey } from '../../../domain/storage/storage-key.js';
import { vouchForUpload } from '../../../domain/uploads/uploaded-file.js';
import type { ImageDimensions, UploadedFile } from '../../../domain/uploads/uploaded-file.js';
import type { StorageDisk } from '../../../ports/storage.js';
import { mayShowInline } from '../kernel/replies.js';

export interface UploadInit {
  field: string;
  originalName: string;
  clientType: string;
  size: number;
  path: string;
  sniffedType: string | null;
  sniffedExtension: string | null;
  dimensions: ImageDimensions | null;
}

/**
 * A file sent in a multipart form, waiting in a temporary file that is removed when the
 * request ends: `store` it on a disk to keep it. What the file is comes from its bytes
 * (`sniffedType`); the client's `Content-Type` and file name are kept for display only.
 */
export class Upload implements UploadedFile {
  /** The form field it came in. */
  readonly field: string;
  readonly originalName: string;
  /** The Content-Type the client claimed: not trusted, not used by the file rules. */
  readonly clientType: string;
  readonly size: number;
  /** The temporary file (removed after the request). */
  readonly path: string;
  readonly sniffedType: string | null;
  readonly sniffedExtension: string | null;
  readonly dimensions: ImageDimensions | null;

  constructor(init: UploadInit) {
    this.field = init.field;
    this.originalName = init.originalName;
    this.clientType = init.clientType;
    this.size = init.size;
    this.path = init.path;
    this.sniffedType = init.sniffedType;
    this.sniffedExtension = init.sniffedExtension;
    this.dimensions = init.dimensions;
    vouchForUpload(this);
  }

  /** The bytes, read from the temporary file. */
  stream(): ReadStream {
    return createReadStream(this.path);
  }

  /**
   * A fresh random name with the sniffed extension (`3f2a….png`; `.bin` when unknown): what to
   * store under when the client's name must not matter. Never the client's name itself.
   */
  hashName(folder?: string): string {
    const name = `${randomUUID()}.${this.sniffedExtension ?? 'bin'}`;
    return folder === undefined ? name : safeStorageKey(`${folder.replace(/\/+$/u, '')}/${name}`);
  }

  /**
   * Copies the file to `disk` at `key` (checked safe), with the sniffed type; returns the key.
   * A type a browser would run (HTML, XML, SVG, scripts: an XHTML file sniffs as
   * `application/xml`) is stored as `application/octet-stream`, so a disk that serves files as
   * stored (S3, its presigned links, a CDN in front) never shows an upload as a page of the site.
   */
  async store(disk: StorageDisk, key: string = this.hashName()): Promise<string> {
    const safe = safeStorageKey(key);
    const sniffed = this.sniffedType ?? 'application/octet-stream';
    await disk.put(safe, this.stream(), { contentType: mayShowInline(sniffed) ? sniffed : 'application/octet-stream' });
    return safe;
  }

  /** What `JSON.stringify` and old-input flashing see: the facts, never the temporary path. */
  toJSON(): Record<string, unknown> {
    return { originalName: this.originalName, size: this.size, type: this.sniffedType };
  }
}

/**
 * The client's file name made fit to show: its last path segment (either separator), without
 * control or bidirectional-override characters, at most 255 characters.
 */
export function displayName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = (raw.split(/[\\/]/u).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, '').trim();
  return Array.from(cleaned).slice(0, 255).join('');
}

/** The one file sent in form field `name` (the first, when several were), or null: `uploadIn(ctx.body(), 'photo')`. */
export function uploadIn(body: unknown, name: string): Upload | null {
  return uploadsIn(body, name)[0] ?? null;
}

/** Every file sent in form field `name` (`<input type="file" multiple>`), in the order sent. */
export function uploadsIn(body: unknown, name: string): Upload[] {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return [];
  const value: unknown = (body as Record<string, unknown>)[name];
  return (Array.isArray(value) ? value : [value]).filter((item): item is Upload => item instanceof Upload);
}
