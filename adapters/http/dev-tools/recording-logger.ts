import type { LogFields, Logger, LogLevel } from '../../../ports/logger.js';
import type { RequestInspector } from './request-inspector.js';

/**
 * The app's logger with every line also told to the request inspector (whatever the log
 * level lets through to the output), which files it under the request that wrote it.
 */
export class RecordingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly inspector: RequestInspector,
    private readonly bound: LogFields = {},
  ) {}

  trace(message: string, fields?: LogFields): void {
    this.line('trace', message, fields);
  }

  debug(message: string, fields?: LogFields): void {
    this.line('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.line('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.line('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.line('error', message, fields);
  }

  fatal(message: string, fields?: LogFields): void {
    this.line('fatal', message, fields);
  }

  child(fields: LogFields): Logger {
    return new RecordingLogger(this.inner.child(fields), this.inspector, { ...this.bound, ...fields });
  }

  /** The logger this one records for (the pino logger, whose buffer `flush` empties at exit). */
  unwrap(): Logger {
    return this.inner;
  }

  private line(level: LogLevel, message: string, fields: LogFields | undefined): void {
    this.inner[level](message, fields);
    this.inspector.recordLog(level, message, { ...this.bound, ...fields });
  }
}
