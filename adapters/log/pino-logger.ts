import { pino } from 'pino';
import type { Logger as Pino, DestinationStream } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import type { LogFields, Logger, LogLevel } from '../../ports/logger.js';

/**
 * Field names whose values never reach a log line, at the top level or one level down
 * (`fields.headers.cookie`). `Secret` values print `[secret]` on their own.
 */
export const REDACTED_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'passwordHash',
  'token',
  '_token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'code',
  'code_verifier',
  'clientSecret',
  'client_secret',
  'secret',
  'appKey',
  'APP_KEY',
  'authorization',
  'cookie',
  'set-cookie',
];

export interface PinoLoggerOptions {
  level: LogLevel | 'silent';
  /** Readable lines for a developer's terminal instead of JSON lines. */
  pretty: boolean;
  /** Where lines go; standard output when omitted. */
  destination?: DestinationStream;
}

export class PinoLogger implements Logger {
  private made: Pino | null;

  /**
   * A child is made on its first line, not when asked for: every request asks for one (its
   * log span) and most never write a line at the configured level.
   */
  private constructor(
    pino: Pino | null,
    private readonly parent: PinoLogger | null = null,
    private readonly bindings: LogFields = {},
  ) {
    this.made = pino;
  }

  private get pino(): Pino {
    this.made ??= (this.parent as PinoLogger).pino.child(this.bindings);
    return this.made;
  }

  private enabled(level: LogLevel): boolean {
    return (this.made ?? this.root()).isLevelEnabled(level);
  }

  private root(): Pino {
    return this.parent === null ? this.pino : this.parent.made ?? this.parent.root();
  }

  static create(options: PinoLoggerOptions): PinoLogger {
    const destination =
      options.destination ??
      (options.pretty
        ? prettyStream()({ sync: true, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
        : pino.destination({ sync: false }));
    const instance = pino(
      {
        level: options.level,
        base: null,
        redact: { paths: REDACTED_FIELDS.flatMap((name) => [`["${name}"]`, `*["${name}"]`]), censor: '[redacted]' },
        formatters: { level: (label) => ({ level: label }) },
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      destination,
    );
    return new PinoLogger(instance);
  }

  trace(message: string, fields?: LogFields): void {
    if (this.enabled('trace')) this.pino.trace(fields ?? {}, message);
  }

  debug(message: string, fields?: LogFields): void {
    if (this.enabled('debug')) this.pino.debug(fields ?? {}, message);
  }

  info(message: string, fields?: LogFields): void {
    if (this.enabled('info')) this.pino.info(fields ?? {}, message);
  }

  warn(message: string, fields?: LogFields): void {
    if (this.enabled('warn')) this.pino.warn(fields ?? {}, message);
  }

  error(message: string, fields?: LogFields): void {
    if (this.enabled('error')) this.pino.error(fields ?? {}, message);
  }

  fatal(message: string, fields?: LogFields): void {
    if (this.enabled('fatal')) this.pino.fatal(fields ?? {}, message);
  }

  child(fields: LogFields): Logger {
    return new PinoLogger(null, this, fields);
  }

  /** Writes what is buffered; call before the process exits. */
  flush(): void {
    this.pino.flush();
  }
}

/**
 * pino-pretty, loaded only for LOG_PRETTY (local development): production logs JSON lines and
 * need not carry it (idle memory). Loaded synchronously, as `create` is.
 */
function prettyStream(): typeof PinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
}
