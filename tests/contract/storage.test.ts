import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Hapi from '@hapi/hapi';
import Inert from '@hapi/inert';
import { afterAll, beforeAll, describe } from 'vitest';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { storageRoutes } from '../../adapters/http/storage/storage-routes.js';
import { Disks } from '../../adapters/storage/disks.js';
import { LocalDisk } from '../../adapters/storage/local-disk.js';
import { S3Disk } from '../../adapters/storage/s3-disk.js';
import type { Storage } from '../../ports/storage.js';
import { startS3Server } from '../support/s3-server.js';
import type { S3TestServer } from '../support/s3-server.js';
import { storageContract } from './storage.contract.js';

const base = mkdtempSync(join(tmpdir(), 'fw-storage-'));
const roots = { local: join(base, 'app', 'private'), public: join(base, 'app', 'public') };
const signing = { appUrl: 'http://127.0.0.1', key: Buffer.alloc(32, 7), clock: new SystemClock() };
const local = () => new LocalDisk({ name: 'local', root: roots.local, visibility: 'private', signing });
const publicDisk = () => new LocalDisk({ name: 'public', root: roots.public, visibility: 'public', urlBase: '/storage', signing });
let storage: Storage = new Disks([local(), publicDisk()], 'local');
// The routes read whichever disks the current test made.
const currentStorage: Storage = {
  get default() {
    return storage.default;
  },
  get names() {
    return storage.names;
  },
  disk: (name) => storage.disk(name),
};

// The framework's storage routes on a real hapi server: public files and temporary links.
const server = Hapi.server({ host: '127.0.0.1', port: 0 });
let siteUrl = '';

beforeAll(async () => {
  await server.register(Inert);
  storageRoutes(server, { storage: currentStorage, publicFolders: [{ urlPath: '/storage', root: roots.public }], signing });
  await server.start();
  siteUrl = `http://127.0.0.1:${server.info.port}`;
  signing.appUrl = siteUrl;
});

afterAll(async () => {
  await server.stop();
  rmSync(base, { recursive: true, force: true });
});

/** A fresh local disk: its folder emptied, nothing beside it. */
function freshLocal(make: () => LocalDisk, root: string) {
  return () => {
    rmSync(join(base, 'app'), { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const disk = make();
    storage = new Disks([disk], disk.name);
    return {
      disk,
      open: (url: string) => fetch(url.startsWith('/') ? `${siteUrl}${url}` : url),
      nothingOutside: () => readdirSync(join(base, 'app')).length === 1 && readdirSync(base).length === 1,
      signaturesChecked: true,
    };
  };
}

storageContract('local (private)', freshLocal(local, roots.local));
storageContract('local (public, served under /storage)', freshLocal(publicDisk, roots.public));

describe('S3 on a real S3-compatible server (s3rver on loopback)', () => {
  let s3: S3TestServer | null = null;
  const disks: S3Disk[] = [];
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    for (const disk of disks) disk.close();
    await s3?.close();
  });
  storageContract('s3', () => {
    if (s3 === null) throw new Error('the S3 server did not start');
    const disk = new S3Disk({
      name: 's3',
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    disks.push(disk);
    return { disk, open: (url) => fetch(url), nothingOutside: () => true, signaturesChecked: false };
  });
});
