import pg from 'pg';
import type { JobWatch } from '../../ports/job-queue.js';
import { JOBS_CHANNEL } from './job-notifications.js';
import type { JobNotifications } from './job-notifications.js';

/**
 * PostgreSQL `LISTEN fw_jobs` on a connection of its own (a listening connection cannot go
 * back to the pool, and it must stay open while the worker idles). A lost connection is
 * opened again with a growing wait; after it is back the listener is called once, since a
 * dispatch may have been announced while nobody listened. If listening fails, workers still
 * find every job by polling.
 */
export class PostgresJobNotifications implements JobNotifications {
  constructor(
    private readonly url: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  async listen(listener: (many?: boolean) => void): Promise<JobWatch> {
    let closed = false;
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
      next.on('notification', (message) => {
        if (message.channel === JOBS_CHANNEL) listener();
      });
      next.on('error', (error) => {
        this.onError(error);
        void next.end().catch(() => undefined);
        if (client === next) client = null;
        again();
      });
      await next.connect();
      await next.query(`LISTEN ${JOBS_CHANNEL}`);
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      failures = 0;
    };
    const again = (): void => {
      if (closed || retry !== undefined) return;
      const waitMs = Math.min(30_000, 250 * 2 ** Math.min(++failures, 7));
      retry = setTimeout(() => {
        retry = undefined;
        // Dispatches may have been announced while nobody listened: every idle loop looks.
        connect().then(() => listener(true), (error: unknown) => {
          this.onError(error instanceof Error ? error : new Error(String(error)));
          again();
        });
      }, waitMs);
      retry.unref();
    };
    await connect();
    return {
      close: async () => {
        closed = true;
        clearTimeout(retry);
        const last = client;
        client = null;
        await last?.end().catch(() => undefined);
      },
    };
  }
}
