import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { useTempDir } from '../../support/databases.js';
import { productionLikeEnvironment } from '../../support/server-process.js';

/**
 * Idle memory: an adapter's SDK is loaded only when a setting chooses that adapter. The default
 * SQLite app carried the S3 SDK, BullMQ and ioredis, the PostgreSQL driver, nodemailer and the
 * OAuth libraries from start, most of the difference to its peers' idle memory.
 */

const FIXTURE = join(FRAMEWORK_ROOT, 'tests', 'support', 'fixtures', 'loaded-packages.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const dir = useTempDir('fw-loaded-');

/** What the default app does not use (its pages print no Markdown, rich text or QR code, no dev tools, JSON logs, no two-factor code yet): megabytes each once loaded. */
const UNCHOSEN = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/s3-request-presigner', 'bullmq', 'ioredis', 'pg', '@mikro-orm/postgresql', 'nodemailer', 'openid-client', 'file-type', 'chokidar', 'sanitize-html', 'markdown-it', 'pino-pretty', 'qrcode', 'pngjs', 'otpauth'];

/** The packages a process serving the default app loaded, with `settings` added to a production-like environment. */
function loadedPackages(name: string, settings: Record<string, string>): Promise<string[]> {
  const root = join(dir(), name);
  mkdirSync(root, { recursive: true });
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', TSX, FIXTURE, root],
      {
        env: productionLikeEnvironment(join(dir(), `${name}.sqlite`), settings),
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`the fixture failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as string[]);
      },
    );
  });
}

describe('adapters load only when a setting chooses them', () => {
  it('the default SQLite app serving pages loads no S3, Redis, PostgreSQL, SMTP or OAuth library', async () => {
    const loaded = await loadedPackages('default', {});
    // The detection sees what is used: the SQLite driver and hapi.
    expect(loaded).toEqual(expect.arrayContaining(['@mikro-orm/better-sqlite', '@hapi/hapi']));
    expect(loaded.filter((name) => UNCHOSEN.includes(name))).toEqual([]);
  }, 150_000);

  it('S3 storage and the Redis queue, once chosen, bring their SDKs', async () => {
    const loaded = await loadedPackages('chosen', {
      S3_BUCKET: 'fw-loaded-test',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY_ID: 'test',
      S3_SECRET_ACCESS_KEY: 'test',
      FILESYSTEM_DISK: 's3',
      QUEUE_CONNECTION: 'redis',
      QUEUE_SERVE_WORKERS: '0',
      QUEUE_PREFIX: `fw-loaded-${process.pid}`,
    });
    expect(loaded).toEqual(expect.arrayContaining(['@aws-sdk/client-s3', 'bullmq', 'ioredis']));
    expect(loaded).not.toContain('pg');
  }, 150_000);
});
