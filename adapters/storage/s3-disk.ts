import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { safeStorageKey } from '../../domain/storage/storage-key.js';
import type { DiskVisibility, PutOptions, StorageBody, StorageDisk, StoredObject } from '../../ports/storage.js';
import { keyPath } from './local-disk.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';

export interface S3DiskOptions {
  name: string;
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, R2, a test server); unset means AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (most non-AWS services). */
  forcePathStyle: boolean;
  /** A public base URL (a CDN, a public bucket): makes the disk public and `url(key)` start with it. */
  publicUrl?: string;
}

/** SigV4 presigned links live at most a week. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/**
 * A disk in an S3-compatible bucket, shared by every server of the app. Uses the AWS SDK v3
 * modular client; checksums are sent only when an operation requires them, which keeps the
 * disk working with S3-compatible services that do not know the SDK's newer checksum headers.
 */
export class S3Disk implements StorageDisk {
  readonly name: string;
  readonly visibility: DiskVisibility;
  private readonly client: S3Client;

  constructor(private readonly options: S3DiskOptions) {
    this.name = options.name;
    this.visibility = options.publicUrl === undefined ? 'private' : 'public';
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle,
      ...(options.accessKeyId !== undefined && options.secretAccessKey !== undefined
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: StorageBody, options: PutOptions = {}): Promise<void> {
    const Key = safeStorageKey(key);
    // Upload sends small bodies in one PUT and large or unsized streams in parts.
    const Body = typeof body === 'string' || body instanceof Uint8Array ? body : Readable.from(body);
    await new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key, Body, ...(options.contentType === undefined ? {} : { ContentType: options.contentType }) },
    }).done();
  }

  async get(key: string): Promise<StoredObject | null> {
    const Key = safeStorageKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key }));
      if (!(object.Body instanceof Readable)) throw new FrameworkError('storage.no-body', 'The S3 client gave no readable body');
      return { stream: object.Body, size: object.ContentLength ?? 0, contentType: object.ContentType ?? null };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  /** S3 answers a delete the same whether or not the object was there: it is looked up first. */
  async delete(key: string): Promise<boolean> {
    const Key = safeStorageKey(key);
    if (!(await this.exists(Key))) return false;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key }));
    return true;
  }

  async size(key: string): Promise<number | null> {
    const Key = safeStorageKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  url(key: string): string {
    if (this.options.publicUrl === undefined) {
      throw new FrameworkError('storage.private-disk', `The disk "${this.name}" is private: its files have no public URL (set S3_URL, or use temporaryUrl)`);
    }
    return `${this.options.publicUrl.replace(/\/+$/u, '')}/${keyPath(key)}`;
  }

  temporaryUrl(key: string, ttlSeconds: number): Promise<string> {
    const Key = safeStorageKey(key);
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_PRESIGN_SECONDS) {
      throw new MisuseError('storage.bad-ttl', `an S3 temporary link lives 1 second to 7 days, got ${ttlSeconds}`);
    }
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key }), { expiresIn: ttlSeconds });
  }

  /** Closes the client's connections (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }
}

function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.$metadata?.httpStatusCode === 404;
}
