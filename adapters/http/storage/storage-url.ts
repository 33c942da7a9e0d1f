import type { Storage, StorageDisk } from '../../../ports/storage.js';

/**
 * The disk `storage_url(key)` means: the one named, else the default disk when it is public
 * (an S3 bucket behind S3_URL), else the local public disk.
 */
function publicDisk(storage: Storage, name: string | undefined): StorageDisk {
  if (name !== undefined) return storage.disk(name);
  return storage.default.visibility === 'public' ? storage.default : storage.disk('public');
}

/** `storage_url('avatars/7.jpg')` in templates: the lasting URL of a public file. */
export function storageUrl(storage: Storage, key: string, disk?: string): string {
  return publicDisk(storage, disk).url(key);
}
