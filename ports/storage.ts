/**
 * Files kept by the app: uploads, exports, generated reports. A disk is one place to keep
 * them (a private folder, the public folder served under `/storage/`, an S3 bucket shared by
 * every server); `Storage` names the disks and knows the default one (FILESYSTEM_DISK).
 *
 * Keys are relative paths checked by `domain/storage/storage-key.ts`: every method refuses an
 * unsafe key with `UnsafeStorageKey` before touching anything.
 */
export interface StoredObject {
  /** The file's bytes, read as they are sent. */
  readonly stream: NodeJS.ReadableStream;
  /** Bytes. */
  readonly size: number;
  /** The type the file was stored with, when the disk keeps one (S3 does). */
  readonly contentType: string | null;
}

export interface PutOptions {
  /** The media type to keep with the file (S3 sends it back on every download). */
  contentType?: string;
}

/** What can be written: bytes, text (UTF-8), or a stream of bytes (an upload's temporary file). */
export type StorageBody = Uint8Array | string | AsyncIterable<Uint8Array | string>;

export type DiskVisibility = 'private' | 'public';

export interface StorageDisk {
  readonly name: string;
  /** `public` files have a URL anyone can open; `private` ones only temporary links. */
  readonly visibility: DiskVisibility;

  /** Writes the whole body, replacing a file at `key`; a failed write leaves no half file behind. */
  put(key: string, body: StorageBody, options?: PutOptions): Promise<void>;

  /** The file at `key` as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;

  exists(key: string): Promise<boolean>;

  /** Removes the file; true when there was one. */
  delete(key: string): Promise<boolean>;

  /** Bytes, or null when there is no file at `key`. */
  size(key: string): Promise<number | null>;

  /**
   * The lasting public URL of a file (`storage_url(key)` in templates). Only public disks have
   * one; a private disk throws, as its files must not be reachable by guessing a link.
   */
  url(key: string): string;

  /**
   * A link to the file that works for `ttlSeconds` and then stops: the framework's signed URL
   * on a local disk, a presigned URL on S3. Whoever holds the link can read the file.
   */
  temporaryUrl(key: string, ttlSeconds: number): Promise<string>;
}

export interface Storage {
  /** FILESYSTEM_DISK's disk. */
  readonly default: StorageDisk;
  /** A disk by name (`local`, `public`, `s3`, or one the app configured); throws for an unknown name. */
  disk(name?: string): StorageDisk;
  readonly names: readonly string[];
}
