import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { CliCommand } from '../adapters/cli/command.js';
import { dbShellCommand } from '../adapters/cli/commands/db-shell.js';
import { keyGenerateCommand } from '../adapters/cli/commands/key-generate.js';
import { maintenanceCommands } from '../adapters/cli/commands/maintenance.js';
import { migrateCommands } from '../adapters/cli/commands/migrate.js';
import { routeListCommand } from '../adapters/cli/commands/route-list.js';
import { routeListHasDomains, routeListRows } from '../domain/http/routing/route-list.js';
import { serveCommand } from '../adapters/cli/commands/serve.js';
import { superviseServer } from '../adapters/cli/serve-watch.js';
import { UsageError } from '../adapters/cli/command.js';
import { sessionPruneCommand } from '../adapters/cli/commands/session-prune.js';
import { scheduleCommands } from '../adapters/cli/commands/schedule.js';
import { cachePruneCommand } from '../adapters/cli/commands/cache-prune.js';
import { webhookCommands } from '../adapters/cli/commands/webhooks.js';
import { makeNotificationCommand } from '../adapters/cli/commands/make-notification.js';
import { makeDataCommands } from '../adapters/cli/commands/make-data.js';
import { uiKitCommands } from '../adapters/cli/commands/ui-kit.js';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { SqlCacheStore } from '../adapters/cache/sql-cache-store.js';
import { scheduleServices, startScheduler } from './schedule.js';
import { userCommands } from '../adapters/cli/commands/users.js';
import { userPasswordCommand } from '../adapters/cli/commands/user-password.js';
import { userSessionCommands } from '../adapters/cli/commands/user-sessions.js';
import { queueCommands } from '../adapters/cli/commands/queue.js';
import { makeCommands } from '../adapters/cli/commands/make.js';
import type { App } from './app.js';
import { FRAMEWORK_ROOT } from './app.js';
import { generateAppKey, setEnvValue } from './env-file.js';
import { TOKENS } from './tokens.js';

/** The commands every app has, wired to the app's services (booted only when a command needs them). */
export function frameworkCommands(app: App): CliCommand[] {
  return [
    keyGenerateCommand({
      generateKey: generateAppKey,
      async writeKey(key) {
        const path = join(app.root, '.env');
        await setEnvValue(path, join(app.root, '.env.example'), 'APP_KEY', key);
        return path;
      },
    }),
    serveCommand({
      async serve(announce) {
        const running = await app.serve();
        announce(`Serving ${running.services.config.app.url} (listening on ${running.url}). Press Ctrl+C to stop.`);
        await untilSignal();
        announce('Stopping…');
        await running.stop();
      },
      async watch(announce) {
        // The same command line again, without --watch, in a child process per version of the code.
        const serveAt = process.argv.indexOf('serve', 2);
        if (serveAt === -1) throw new UsageError('serve --watch restarts its process: run it from the command line (fwx serve --watch)');
        const args = [...process.execArgv, ...process.argv.slice(1).filter((arg) => arg !== '--watch')];
        announce('Watching the app\'s TypeScript: the server restarts when it changes. Press Ctrl+C to stop.');
        await superviseServer({ command: process.execPath, args, cwd: process.cwd(), root: app.root, announce, stopped: untilSignal() });
      },
    }),
    ...migrateCommands({
      migrator: async () => (await app.services()).get(TOKENS.migrator),
      environment: async () => (await app.config()).app.env,
      async seed() {
        const services = await app.services();
        const names: string[] = [];
        for (const seeder of app.seeders()) {
          await seeder.run(services);
          names.push(seeder.name);
        }
        return names;
      },
    }),
    dbShellCommand({
      async target() {
        const { database } = await app.config();
        return database.engine === 'sqlite' ? database : { engine: 'postgres', url: database.url.reveal() };
      },
    }),
    ...maintenanceCommands({
      async maintenance() {
        const services = await app.services();
        return { switch: services.get(TOKENS.maintenance), clock: services.get(TOKENS.clock), appUrl: services.config.app.url };
      },
    }),
    sessionPruneCommand({
      async sessions() {
        const services = await app.services();
        return { store: services.get(TOKENS.sessionStore), clock: services.get(TOKENS.clock), driver: services.config.session.driver };
      },
    }),
    cachePruneCommand({
      async cache() {
        const services = await app.services();
        // The table whatever CACHE_STORE says: rows left from when the store was the database go too.
        const store = new SqlCacheStore(services.get(TOKENS.database).raw, services.get(TOKENS.clock));
        return { pruneExpired: () => store.pruneExpired(), store: services.config.cache.store };
      },
    }),
    makeNotificationCommand({ root: () => app.root }),
    ...makeDataCommands({ root: () => app.root, now: () => new Date() }),
    ...uiKitCommands({ root: () => app.root, kitFolder: () => join(FRAMEWORK_TEMPLATES, 'fw', 'ui'), version: frameworkVersion }),
    ...webhookCommands(async () => {
      const services = await app.services();
      return { deliveries: services.get(TOKENS.webhookDeliveries), webhooks: services.get(TOKENS.webhooks), clock: services.get(TOKENS.clock) };
    }),
    ...scheduleCommands({
      schedule: async () => scheduleServices(app.scheduleEntries(), await app.services()),
      async work(announce) {
        const entries = app.scheduleEntries();
        if (entries.length === 0) {
          announce('No tasks are scheduled; nothing to run.');
          return;
        }
        const scheduler = await startScheduler(entries, await app.services());
        announce(`Running ${entries.length} scheduled task${entries.length === 1 ? '' : 's'}. Press Ctrl+C to stop.`);
        await untilSignal();
        announce('Stopping: waiting for the runs under way…');
        await scheduler.stop();
      },
    }),
    routeListCommand({
      routes() {
        const table = app.routeTable();
        return { rows: routeListRows(table), hasDomains: routeListHasDomains(table) };
      },
    }),
    ...userCommands({
      async users() {
        const services = await app.services();
        return {
          createUser: services.get(TOKENS.createUser),
          listUsers: services.get(TOKENS.listUsers),
          findUserByEmail: services.get(TOKENS.findUserByEmail),
          markEmailVerified: services.get(TOKENS.markEmailVerified),
          deleteUser: services.get(TOKENS.deleteUser),
        };
      },
    }),
    userPasswordCommand({
      async passwords() {
        const services = await app.services();
        return { findUserByEmail: services.get(TOKENS.findUserByEmail), setPassword: services.get(TOKENS.setPassword) };
      },
    }),
    ...makeCommands({ root: () => app.root }),
    ...queueCommands({
      async queue() {
        const services = await app.services();
        return { queue: services.get(TOKENS.jobQueue), batches: services.get(TOKENS.jobBatches), clock: services.get(TOKENS.clock) };
      },
      async work(request, announce) {
        const worker = await app.worker({ ...(request.queues === null ? {} : { queues: request.queues }), concurrency: request.workers, once: request.once });
        announce(`Working on ${worker.queues.join(', ')} with ${request.workers} worker${request.workers === 1 ? '' : 's'}${request.once ? ' (--once)' : ''}.`);
        const stopOnSignal = () => void worker.stop();
        process.once('SIGINT', stopOnSignal);
        process.once('SIGTERM', stopOnSignal);
        try {
          await worker.run();
        } finally {
          process.off('SIGINT', stopOnSignal);
          process.off('SIGTERM', stopOnSignal);
        }
        const { completed, retried, failed } = worker.stats;
        announce(`Stopped: ${completed} completed, ${retried} to retry, ${failed} failed.`);
      },
    }),
    ...userSessionCommands({
      async sessions() {
        const services = await app.services();
        return {
          findUserByEmail: services.get(TOKENS.findUserByEmail),
          listUserSessions: services.get(TOKENS.listUserSessions),
          endAllSessions: services.get(TOKENS.endAllSessions),
          driver: services.config.session.driver,
        };
      },
    }),
  ];
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('disconnect', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Started by `serve --watch`: stop when the watching process is gone, never left orphaned.
    if (process.connected) {
      process.once('disconnect', stop);
      // The channel alone must not keep the process alive once the server has stopped.
      process.channel?.unref();
    }
  });
}

/** The framework's version from its package.json, for files its commands write. */
function frameworkVersion(): string {
  const { version } = JSON.parse(readFileSync(join(FRAMEWORK_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof version === 'string' ? version : '';
}
