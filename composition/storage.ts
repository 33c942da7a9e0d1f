import { isAbsolute, join } from 'node:path';
import { Disks } from '../adapters/storage/disks.js';
import { LocalDisk } from '../adapters/storage/local-disk.js';
import type { S3Disk, S3DiskOptions } from '../adapters/storage/s3-disk.js';
import type { Clock } from '../ports/clock.js';
import type { StorageDisk } from '../ports/storage.js';
import { ConfigError } from './config.js';
import type { Config } from './config.js';
import { MisuseError } from '../domain/shared/errors.js';

/** The URL path the local public disk is served under. */
export const PUBLIC_DISK_PATH = '/storage';

export interface StorageSettings {
  /** FILESYSTEM_DISK: `local` (private), `public`, or `s3`. */
  defaultDisk: string;
  localRoot: string;
  publicRoot: string;
  /** Present when S3_BUCKET is set. */
  s3: Omit<S3DiskOptions, 'name'> | null;
  /** UPLOAD_TMP_DIR: where uploads wait while their request runs. */
  uploadTempDir: string;
}

/**
 * The storage settings, read from the raw values beside the main configuration (so this area
 * owns its settings): FILESYSTEM_DISK, S3_*, UPLOAD_TMP_DIR. A bad one stops start-up naming it.
 */
export function storageSettings(config: Config): StorageSettings {
  const read = (name: string): string | undefined => {
    const value = config.env(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const folder = (name: string, fallback: string): string => {
    const value = read(name) ?? fallback;
    return isAbsolute(value) ? value : join(config.root, value);
  };
  const bucket = read('S3_BUCKET');
  let s3: StorageSettings['s3'] = null;
  if (bucket !== undefined) {
    const endpoint = read('S3_ENDPOINT');
    if (endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/u.test(endpoint)) throw new ConfigError('S3_ENDPOINT', `must be an http(s) address such as https://s3.example.com, got "${endpoint}"`);
    const publicUrl = read('S3_URL');
    if (publicUrl !== undefined && !/^https?:\/\/[^?#]+$/u.test(publicUrl)) throw new ConfigError('S3_URL', `must be an http(s) address, got "${publicUrl}"`);
    const pathStyle = read('S3_FORCE_PATH_STYLE') ?? (endpoint === undefined ? 'false' : 'true');
    if (pathStyle !== 'true' && pathStyle !== 'false') throw new ConfigError('S3_FORCE_PATH_STYLE', `must be true or false, got "${pathStyle}"`);
    const accessKeyId = read('S3_ACCESS_KEY_ID');
    const secretAccessKey = read('S3_SECRET_ACCESS_KEY');
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      throw new ConfigError(accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY', 'must be set together with its pair (or both left unset for the AWS default credentials)');
    }
    s3 = {
      bucket,
      region: read('S3_REGION') ?? 'us-east-1',
      forcePathStyle: pathStyle === 'true',
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...(accessKeyId === undefined || secretAccessKey === undefined ? {} : { accessKeyId, secretAccessKey }),
    };
  }
  const defaultDisk = read('FILESYSTEM_DISK') ?? 'local';
  if (!['local', 'public', 's3'].includes(defaultDisk)) throw new ConfigError('FILESYSTEM_DISK', `must be local, public or s3, got "${defaultDisk}"`);
  if (defaultDisk === 's3' && s3 === null) throw new ConfigError('FILESYSTEM_DISK', 'is s3, but S3_BUCKET is not set');
  return {
    defaultDisk,
    localRoot: folder('STORAGE_LOCAL_ROOT', 'storage/app/private'),
    publicRoot: folder('STORAGE_PUBLIC_ROOT', 'storage/app/public'),
    s3,
    uploadTempDir: folder('UPLOAD_TMP_DIR', 'storage/framework/uploads'),
  };
}

/**
 * The disks: `local` and `public` always, `s3` when configured. Temporary links of local disks
 * are signed URLs. `s3Disk` is the S3 adapter, loaded by the caller only when S3_BUCKET is set.
 */
export function buildStorage(settings: StorageSettings, signing: { appUrl: string; key: Buffer; clock: Clock }, s3Disk: typeof S3Disk | null): Disks {
  const disks: StorageDisk[] = [
    new LocalDisk({ name: 'local', root: settings.localRoot, visibility: 'private', signing }),
    new LocalDisk({ name: 'public', root: settings.publicRoot, visibility: 'public', urlBase: PUBLIC_DISK_PATH, signing }),
  ];
  if (settings.s3 !== null) {
    if (s3Disk === null) throw new MisuseError('storage.s3-not-loaded', 'S3_BUCKET is set, but the S3 disk was not loaded');
    disks.push(new s3Disk({ name: 's3', ...settings.s3 }));
  }
  return new Disks(disks, settings.defaultDisk);
}
