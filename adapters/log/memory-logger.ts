import type { LogFields, Logger, LogLevel } from '../../ports/logger.js';

export interface LogLine {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** Keeps log lines in an array so tests can read what would have been logged. */
export class MemoryLogger implements Logger {
  constructor(
    readonly lines: LogLine[] = [],
    private readonly bound: LogFields = {},
  ) {}

  trace(message: string, fields?: LogFields): void {
    this.write('trace', message, fields);
  }

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  fatal(message: string, fields?: LogFields): void {
    this.write('fatal', message, fields);
  }

  child(fields: LogFields): Logger {
    return new MemoryLogger(this.lines, { ...this.bound, ...fields });
  }

  private write(level: LogLevel, message: string, fields: LogFields = {}): void {
    this.lines.push({ level, message, fields: { ...this.bound, ...fields } });
  }
}
