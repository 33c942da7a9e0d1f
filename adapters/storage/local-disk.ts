import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expiresAfter, signUrl } from '../../domain/http/signed-urls/signed-url.js';
import { keySegments } from '../../domain/storage/storage-key.js';
import type { Clock } from '../../ports/clock.js';
import type { DiskVisibility, StorageBody, StorageDisk, StoredObject } from '../../ports/storage.js';
import { FrameworkError } from '../../domain/shared/errors.js';

/** Where the framework serves a local disk's temporary links: `/_fw/storage/<disk>/<key>?expires=…&signature=…`. */
export const TEMPORARY_LINK_PREFIX = '/_fw/storage';

export interface LocalDiskOptions {
  name: string;
  /** The folder holding the disk's files (created on the first write). */
  root: string;
  visibility: DiskVisibility;
  /** Public disks: the URL path or absolute URL the files are served under (`/storage`). */
  urlBase?: string;
  /** Temporary links are the framework's signed URLs: APP_URL, the key derived for them, the clock. */
  signing: { appUrl: string; key: Buffer; clock: Clock };
}

/** A key as a URL path: each segment percent-encoded, so `a b/c#d.txt` stays one file. */
export function keyPath(key: string): string {
  return keySegments(key).map(encodeURIComponent).join('/');
}

/**
 * A disk on this machine's file system. Writes go to a hidden temporary file beside the
 * target, then a rename: a reader never sees half a file, and a failed write leaves nothing.
 * (Hidden names are never served by the public disk's route.)
 */
export class LocalDisk implements StorageDisk {
  readonly name: string;
  readonly visibility: DiskVisibility;
  private readonly root: string;

  constructor(private readonly options: LocalDiskOptions) {
    this.name = options.name;
    this.visibility = options.visibility;
    this.root = resolve(options.root);
  }

  /** The absolute path of a key: checked safe, then checked again to be under the root. */
  pathOf(key: string): string {
    const path = join(this.root, ...keySegments(key));
    if (!path.startsWith(this.root + sep)) throw new FrameworkError('storage.outside-disk', `Storage key ${key} resolves outside the disk`);
    return path;
  }

  async put(key: string, body: StorageBody): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = join(dirname(target), `.${randomUUID()}.part`);
    try {
      if (typeof body === 'string' || body instanceof Uint8Array) await writeFile(temporary, body, { flag: 'wx' });
      else await pipeline(Readable.from(body), createWriteStream(temporary, { flags: 'wx' }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    const size = await this.fileSize(path);
    if (size === null) return null;
    return { stream: createReadStream(path), size, contentType: null };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.fileSize(this.pathOf(key))) !== null;
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(key);
    if ((await this.fileSize(path)) === null) return false;
    try {
      await unlink(path);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    return this.fileSize(this.pathOf(key));
  }

  url(key: string): string {
    if (this.visibility !== 'public' || this.options.urlBase === undefined) {
      throw new FrameworkError('storage.private-disk', `The disk "${this.name}" is private: its files have no public URL (use temporaryUrl)`);
    }
    return `${this.options.urlBase.replace(/\/+$/u, '')}/${keyPath(key)}`;
  }

  temporaryUrl(key: string, ttlSeconds: number): Promise<string> {
    const { appUrl, key: signingKey, clock } = this.options.signing;
    const path = `${TEMPORARY_LINK_PREFIX}/${encodeURIComponent(this.name)}/${keyPath(key)}`;
    const expiresAt = expiresAfter(Math.floor(clock.now().getTime() / 1000), ttlSeconds);
    return Promise.resolve(signUrl(appUrl, path, { expiresAt, key: signingKey }));
  }

  /** Bytes of a regular file, or null when there is none (a folder is no file). */
  private async fileSize(path: string): Promise<number | null> {
    try {
      const stats = await stat(path);
      return stats.isFile() ? stats.size : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
