import { JobWorker } from '../adapters/worker/job-worker.js';
import type { JobHandler, WorkerOptions } from '../adapters/worker/job-worker.js';
import { fractionOf } from '../domain/queue/backoff.js';
import { DEFAULT_QUEUE } from '../domain/queue/job-options.js';
import { redactSecrets } from '../domain/shared/redact-secrets.js';
import type { RegisteredJob } from './jobs.js';
import type { AppServices } from './services.js';
import type { Config } from './config.js';
import { TOKENS } from './tokens.js';

/** The jobs an app registered (`app.job(…)`, modules' `jobs`), by name. */
export type JobRegistry = ReadonlyMap<string, RegisteredJob>;

/** A worker over the app's queue and jobs (`queue:work`, `serve`). */
export function createWorker(services: AppServices, registry: JobRegistry, provided: ReadonlyMap<symbol, unknown>, options: WorkerOptions): JobWorker {
  const handlers = new Map<string, JobHandler>();
  for (const [name, definition] of registry) handlers.set(name, definition.handler(services, provided));
  const random = services.get(TOKENS.random);
  return new JobWorker(
    {
      queue: services.get(TOKENS.jobQueue),
      handler: (name) => handlers.get(name),
      clock: services.get(TOKENS.clock),
      random: () => fractionOf(random.bytes(4)),
      logger: services.get(TOKENS.logger),
      batches: services.get(TOKENS.jobBatches),
      redact: redactor(secretsOf(services.config)),
    },
    options,
  );
}

/** The secrets of the configuration as they could appear in an error's text. */
export function secretsOf(config: Config): string[] {
  const secrets = [config.app.key.reveal().toString('base64'), config.app.key.reveal().toString('base64url')];
  const urls = [config.redis.url.reveal(), config.mail.url.reveal(), ...(config.database.engine === 'postgres' ? [config.database.url.reveal()] : [])];
  for (const url of urls) {
    try {
      // As written in the URL and decoded: an error may echo either spelling.
      const raw = new URL(url).password;
      if (raw !== '') secrets.push(raw, decodeURIComponent(raw));
    } catch {
      // Not a URL with a password: nothing of it to hide.
    }
  }
  // Short values would blank ordinary words; the URLs' passwords are what errors echo.
  return secrets.filter((secret) => secret.length >= 4);
}

/**
 * Replaces every secret with `[secret]`, as the Secret type prints itself, through the
 * framework's one redaction helper (also used for sign-in reasons and scheduled tasks' errors).
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  return (text) => redactSecrets(text, secrets, { marker: '[secret]' });
}

/** Every queue the app's jobs name, `default` first: what `serve` and a bare `queue:work` work on. */
export function registeredQueues(registry: JobRegistry): string[] {
  return [...new Set([DEFAULT_QUEUE, ...[...registry.values()].map((definition) => definition.options.queue)])];
}
