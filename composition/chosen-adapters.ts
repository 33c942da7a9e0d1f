import { join } from 'node:path';
import type { Disks } from '../adapters/storage/disks.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { Clock } from '../ports/clock.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import type { Config } from './config.js';
import { buildStorage, storageSettings } from './storage.js';

/** What the container hands a chosen adapter when it is first asked for. */
export interface AdapterDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly database: Database;
  readonly logger: Logger;
}

/** Something opened that must be released when the app closes; each maker registers its own. */
export type Closer = () => void | Promise<void>;

/**
 * How each port that a setting chooses is made, decided once at boot. Only the adapter the
 * setting names is loaded (a dynamic `import()`): the S3 SDK, BullMQ and ioredis, `pg` and
 * nodemailer's SMTP transport cost tens of megabytes of memory each, which an app that does
 * not use them should not pay (the default SQLite app idled at 150 MB with all of them loaded).
 * A maker that opens a connection hands `onClose` what ends it; composition runs those in
 * reverse when the app closes, so nothing asks `instanceof` which adapter it got.
 */
export interface ChosenAdapters {
  cacheStore(deps: AdapterDeps, onClose: (close: Closer) => void): CacheStore;
  jobQueue(deps: AdapterDeps, onClose: (close: Closer) => void): JobQueue;
  mailer(deps: AdapterDeps, onClose: (close: Closer) => void): Mailer;
  storage(deps: AdapterDeps, signingKey: Buffer): Disks;
}

export async function chooseAdapters(config: Config): Promise<ChosenAdapters> {
  const [cacheStore, jobQueue, mailer, storage] = await Promise.all([chooseCacheStore(config), chooseJobQueue(config), chooseMailer(config), chooseStorage(config)]);
  return { cacheStore, jobQueue, mailer, storage };
}

async function chooseCacheStore(config: Config): Promise<ChosenAdapters['cacheStore']> {
  switch (config.cache.store) {
    case 'memory': {
      const { MemoryCacheStore } = await import('../adapters/cache/memory-cache-store.js');
      return ({ clock }) => new MemoryCacheStore(clock);
    }
    case 'database': {
      const { SqlCacheStore } = await import('../adapters/cache/sql-cache-store.js');
      return ({ database, clock, logger }) =>
        new SqlCacheStore(database.raw, clock, {
          onPruneError: (error) => logger.warn('expired cache rows could not be deleted', { error: String(error) }),
        });
    }
    case 'redis': {
      const { RedisCacheStore } = await import('../adapters/cache/redis-cache-store.js');
      return ({ logger }, onClose) => {
        const store = new RedisCacheStore({
          url: config.redis.url.reveal(),
          onError: (error) => logger.error('Redis (CACHE_STORE=redis) is unreachable; rate-limited routes fail until it is back', { error: error.message }),
        });
        // The Redis connection would otherwise keep the process alive.
        onClose(() => store.close());
        return store;
      };
    }
  }
}

async function chooseJobQueue(config: Config): Promise<ChosenAdapters['jobQueue']> {
  switch (config.queue.connection) {
    case 'database': {
      const { SqlJobQueue } = await import('../adapters/queue/sql-job-queue.js');
      // On PostgreSQL a dispatch wakes idle workers on every machine (LISTEN/NOTIFY); on SQLite
      // those of the machine's processes (a wake file beside the database). Polling stays as the
      // fallback either way.
      const settings = config.database;
      const postgres = settings.engine === 'postgres' ? { url: settings.url, Listener: (await import('../adapters/queue/postgres-job-notifications.js')).PostgresJobNotifications } : null;
      const wakePath = settings.engine === 'sqlite' && settings.path !== ':memory:' ? `${settings.path}-jobs-wake` : null;
      const wakeFile = wakePath === null ? null : (await import('../adapters/queue/file-job-notifications.js')).FileJobNotifications;
      return ({ database, logger }, onClose) => {
        const queue = new SqlJobQueue(
          database.raw,
          postgres !== null
            ? new postgres.Listener(postgres.url.reveal(), (error) => logger.warn('the queue lost its LISTEN connection; it reconnects, workers poll meanwhile', { error: error.message }))
            : wakeFile !== null && wakePath !== null
              ? new wakeFile(wakePath, (error) => logger.warn('the queue cannot use its wake file; workers of other processes poll', { error: error.message }))
              : null,
        );
        onClose(() => queue.close());
        return queue;
      };
    }
    case 'sync': {
      // Nothing waits with sync: dispatch runs the job. The empty queue keeps queue:failed & co. answering.
      const { MemoryJobQueue } = await import('../adapters/queue/memory-job-queue.js');
      return (_deps, onClose) => {
        const queue = new MemoryJobQueue();
        onClose(() => queue.close());
        return queue;
      };
    }
    case 'redis': {
      const { BullMqJobQueue } = await import('../adapters/queue/bullmq-job-queue.js');
      return ({ logger }, onClose) => {
        const queue = new BullMqJobQueue({
          url: config.redis.url.reveal(),
          prefix: config.queue.prefix,
          onError: (error) => logger.error('Redis (QUEUE_CONNECTION=redis) is unreachable; dispatch and workers wait for it', { error: error.message }),
        });
        onClose(() => queue.close());
        return queue;
      };
    }
  }
}

/**
 * MAIL_URL: `log:` (the default) writes each message to storage/mail and the log; smtp:// and
 * smtps:// deliver (config.ts admits no other scheme).
 */
async function chooseMailer(config: Config): Promise<ChosenAdapters['mailer']> {
  const url = config.mail.url.reveal();
  if (url.toLowerCase().startsWith('log:')) {
    const { LogMailer } = await import('../adapters/mail/log-mailer.js');
    return ({ logger, clock }) => new LogMailer({ folder: join(config.root, 'storage', 'mail'), from: config.mail.from, logger, clock });
  }
  const { SmtpMailer } = await import('../adapters/mail/smtp-mailer.js');
  return (_deps, onClose) => {
    const mailer = new SmtpMailer({ url, from: config.mail.from });
    onClose(() => mailer.close());
    return mailer;
  };
}

/** The disks: `local` and `public` always, `s3` (and the AWS SDK) only when S3_BUCKET is set. */
async function chooseStorage(config: Config): Promise<ChosenAdapters['storage']> {
  const settings = storageSettings(config);
  const s3 = settings.s3 === null ? null : (await import('../adapters/storage/s3-disk.js')).S3Disk;
  return ({ clock }, key) => buildStorage(settings, { appUrl: config.app.url, key, clock }, s3);
}
