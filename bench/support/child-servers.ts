import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';

/**
 * The servers a bench starts in processes of their own (so the server under test and the load
 * generator each get a core): stopped politely, or all killed when the bench fails.
 */
export class ChildServers {
  private readonly children = new Set<ChildProcess>();

  add(child: ChildProcess): ChildProcess {
    this.children.add(child);
    return child;
  }

  /** For a bench that fails or runs out of time: no server outlives it. */
  killAll(): void {
    for (const child of this.children) if (child.exitCode === null) child.kill('SIGKILL');
  }

  /** Asks the server to stop ('stop' over IPC); kills it after ten seconds. */
  async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    this.children.delete(child);
  }
}

/**
 * The server side: stops on the parent's 'stop' or when the parent goes away, answers other
 * messages with `onMessage`, and tells the parent it is ready with `ready`.
 */
export function serveParent(running: { stop(): Promise<void> }, ready: object, onMessage: (message: unknown) => void = () => undefined): void {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await running.stop();
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
    else onMessage(message);
  });
  process.on('disconnect', () => void stop());
  process.send?.(ready);
}

/**
 * The settings every bench app runs with: production mode, a fresh APP_KEY, quiet logs, a
 * loopback listener on a free port, cookie sessions and counters in memory, so the rows measure
 * the code and not a setting; `extra` adds or overrides.
 */
export function benchEnvironment(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    APP_ENV: 'production',
    APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    SESSION_DRIVER: 'cookie',
    CACHE_STORE: 'memory',
    ...extra,
  };
}
