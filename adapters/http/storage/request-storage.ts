import type { PutOptions, Storage, StorageBody, StorageDisk, StoredObject } from '../../../ports/storage.js';

/**
 * `ctx.storage`: the app's disks as a handler reaches them. It is itself the default disk
 * (FILESYSTEM_DISK), as Laravel's `Storage::put` and the spec's `state.storage.temporary_url`
 * are, and `.disk(name)` names another. `Download.fromStorage(ctx.storage, key)` reads the
 * default disk.
 */
export interface RequestStorage extends StorageDisk {
  /** A disk by name (`local`, `public`, `s3`); the default one without a name; throws for an unknown name. */
  disk(name?: string): StorageDisk;
  /** The names of the app's disks. */
  readonly names: readonly string[];
}

/** Built once per kernel: every method forwards to the default disk, read when called. */
export function requestStorage(storage: Storage): RequestStorage {
  return {
    get name(): string {
      return storage.default.name;
    },
    get visibility() {
      return storage.default.visibility;
    },
    get names(): readonly string[] {
      return storage.names;
    },
    disk: (name?: string): StorageDisk => storage.disk(name),
    put: (key: string, body: StorageBody, options?: PutOptions): Promise<void> => storage.default.put(key, body, options),
    get: (key: string): Promise<StoredObject | null> => storage.default.get(key),
    exists: (key: string): Promise<boolean> => storage.default.exists(key),
    delete: (key: string): Promise<boolean> => storage.default.delete(key),
    size: (key: string): Promise<number | null> => storage.default.size(key),
    url: (key: string): string => storage.default.url(key),
    temporaryUrl: (key: string, ttlSeconds: number): Promise<string> => storage.default.temporaryUrl(key, ttlSeconds),
  };
}
