import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../composition/config.js';
import { buildStorage, storageSettings } from '../../../composition/storage.js';
import { S3Disk } from '../../../adapters/storage/s3-disk.js';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';

const APP_KEY = `base64:${randomBytes(32).toString('base64')}`;

function settings(values: Record<string, string> = {}) {
  return storageSettings(parseConfig({ APP_KEY, ...values }, '/srv/app'));
}

function refusal(values: Record<string, string>): string {
  try {
    settings(values);
  } catch (error) {
    if (error instanceof ConfigError) return `${error.variable}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('storage settings (FILESYSTEM_DISK, S3_*, UPLOAD_TMP_DIR)', () => {
  it('defaults: the private local disk, folders under storage/, no S3', () => {
    expect(settings()).toEqual({
      defaultDisk: 'local',
      localRoot: '/srv/app/storage/app/private',
      publicRoot: '/srv/app/storage/app/public',
      s3: null,
      uploadTempDir: '/srv/app/storage/framework/uploads',
    });
  });

  it('S3: a bucket makes the disk; an endpoint turns on path-style addressing; S3_URL makes it public', () => {
    expect(settings({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_URL: 'https://cdn.example.com' }).s3).toEqual({
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      accessKeyId: 'k',
      secretAccessKey: 's',
      publicUrl: 'https://cdn.example.com',
    });
    expect(settings({ S3_BUCKET: 'b', S3_REGION: 'eu-west-1' }).s3).toEqual({ bucket: 'b', region: 'eu-west-1', forcePathStyle: false });
  });

  it.each([
    [{ FILESYSTEM_DISK: 'ftp' }, 'FILESYSTEM_DISK: Invalid configuration: FILESYSTEM_DISK must be local, public or s3, got "ftp"'],
    [{ FILESYSTEM_DISK: 's3' }, 'FILESYSTEM_DISK: Invalid configuration: FILESYSTEM_DISK is s3, but S3_BUCKET is not set'],
    [{ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT: Invalid configuration: S3_ENDPOINT must be an http(s) address such as https://s3.example.com, got "ftp://x"'],
    [{ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE: Invalid configuration: S3_FORCE_PATH_STYLE must be true or false, got "yes"'],
    [{ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' }, 'S3_SECRET_ACCESS_KEY: Invalid configuration: S3_SECRET_ACCESS_KEY must be set together with its pair (or both left unset for the AWS default credentials)'],
  ])('refuses %j naming the setting', (values, message) => {
    expect(refusal(values)).toBe(message);
  });

  it('builds local and public disks always, s3 when configured, with FILESYSTEM_DISK as the default', () => {
    const signing = { appUrl: 'https://app.example.com', key: Buffer.alloc(32, 1), clock: new FixedClock('2026-11-24T12:00:00Z') };
    const plain = buildStorage(settings(), signing, S3Disk);
    expect([plain.names, plain.default.name]).toEqual([['local', 'public'], 'local']);
    const withS3 = buildStorage(settings({ S3_BUCKET: 'b', FILESYSTEM_DISK: 's3' }), signing, S3Disk);
    expect([withS3.names, withS3.default.name, withS3.disk('s3').visibility]).toEqual([['local', 'public', 's3'], 's3', 'private']);
    expect(() => withS3.disk('ftp')).toThrow('No storage disk named "ftp" (the disks are: local, public, s3)');
  });

  it('a local temporary link is APP_URL plus a signed framework path, expiring after the ttl', async () => {
    const signing = { appUrl: 'https://app.example.com', key: Buffer.alloc(32, 1), clock: new FixedClock('2026-11-24T12:00:00Z') };
    const link = await buildStorage(settings(), signing, S3Disk).disk('local').temporaryUrl('a b/c.pdf', 600);
    const expires = Date.parse('2026-11-24T12:00:00Z') / 1000 + 600;
    expect(link).toMatch(new RegExp(`^https://app\\.example\\.com/_fw/storage/local/a%20b/c\\.pdf\\?expires=${expires}&signature=[0-9a-f]{64}$`, 'u'));
  });
});
