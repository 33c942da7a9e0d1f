import { randomBytes } from 'node:crypto';
import { MemoryLogger } from '../adapters/log/memory-logger.js';
import type { LogLine } from '../adapters/log/memory-logger.js';
import type { AppOptions, CommandOutcome } from './app.js';
import { App } from './app.js';
import { createDefaultApp } from './default-app.js';

export interface TestAppOptions {
  /** Settings on top of the test defaults (APP_ENV=testing, a random APP_KEY, in-memory SQLite). */
  environment?: Record<string, string>;
  /** The app's folder (where `key:generate` writes `.env`); the working directory by default. */
  root?: string;
  /** Builds the app under test from the options; the default app when omitted. */
  build?: (options: AppOptions) => App;
}

/**
 * The app as a test meets it: no `.env` is read, log lines are kept in `logs`, and
 * `call(command, args)` runs a command in-process (the spec's `kernel().call`).
 */
export class TestApp {
  readonly logs: LogLine[] = [];
  readonly app: App;

  private constructor(options: TestAppOptions) {
    const environment = {
      APP_ENV: 'testing',
      APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      ...options.environment,
    };
    const appOptions: AppOptions = { environment, envFile: false, logger: new MemoryLogger(this.logs) };
    if (options.root !== undefined) appOptions.root = options.root;
    this.app = (options.build ?? createDefaultApp)(appOptions);
  }

  static create(options: TestAppOptions = {}): TestApp {
    return new TestApp(options);
  }

  call(command: string, args: readonly string[] = []): Promise<CommandOutcome> {
    return this.app.kernel().call(command, args);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

export { App };
