import { isIP } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { StructError, coerce, create, define, defaulted, optional, string, type } from 'superstruct';
import type { Struct } from 'superstruct';
import { Secret } from '../domain/shared/secret.js';
import type { LogLevel } from '../ports/logger.js';
import { readEnvFile } from './env-file.js';
import type { EnvValues } from './env-file.js';
import { DEFAULT_BODY_MAX_DEPTH } from '../domain/http/body-depth.js';
import { FrameworkError } from '../domain/shared/errors.js';
import type { YoungGeneration } from './young-generation.js';

/** The whole typed configuration, read once at start from `.env` and the environment. */
export interface Config {
  root: string;
  app: {
    name: string;
    env: string;
    debug: boolean;
    /** The app's language (`app.locale` in views, `ctx.locale`); translations arrive later. */
    locale: string;
    /** APP_TIMEZONE: an IANA zone (`Europe/Berlin`) for the `date` filter and the scheduler's cron expressions; UTC by default. */
    timezone: string;
    /** APP_CURRENCY: an ISO 4217 code (`EUR`) for money formats; USD by default. */
    currency: string;
    /** Origin without a trailing slash, e.g. `http://localhost:3000`. */
    url: string;
    key: Secret<Buffer>;
  };
  server: { host: string; port: number };
  log: { level: LogLevel | 'silent' };
  database: { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: Secret };
  session: { driver: 'cookie' | 'database'; lifetimeMinutes: number; rememberLifetimeMinutes: number };
  http: { uploadMaxBytes: number; bodyMaxDepth: number; requestTimeoutMs: number; trustedProxies: string[]; trustedHosts: string[]; transport: 'hapi' | 'fetch' };
  cache: { store: 'memory' | 'database' | 'redis' };
  mail: { url: Secret; from: string };
  redis: { url: Secret };
  /** SCHEDULER=false keeps `serve` from running the scheduler (`schedule:work` runs it anyway). */
  scheduler: { enabled: boolean };
  /**
   * QUEUE_CONNECTION (database, the default; redis; sync runs jobs at dispatch), QUEUE_PREFIX
   * (the Redis keys' prefix), QUEUE_SERVE_WORKERS (jobs `serve` runs at once; 0 runs none).
   */
  queue: { connection: 'database' | 'redis' | 'sync'; prefix: string; serveWorkers: number };
  /** YOUNG_GENERATION: small (given back when quiet, at most 2 × 4 MB; the default) or grow (V8's own sizing); composition/young-generation.ts. */
  memory: { youngGeneration: YoungGeneration };
  /**
   * A raw value, for module settings read when a request needs them (`PROVIDER_A_CLIENT_ID`).
   * A function rather than a field, so that printing the configuration prints no secret.
   */
  env(name: string): string | undefined;
}

/** A setting that is missing or wrong. Its message is one line that names the variable. */
export class ConfigError extends FrameworkError {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super('config.invalid', `Invalid configuration: ${variable} ${problem}`);
  }
}

// ---- Value parsers: each turns the text of one variable into a value or says what is wrong.

/** What a parser returns when the text is wrong: the end of the sentence "<VARIABLE> ...". */
class Problem {
  constructor(readonly text: string) {}
}

type Parser<T> = (raw: string) => T | Problem;

/** A superstruct struct that parses one variable's text, reporting the parser's own wording. */
function setting<T>(name: string, parse: Parser<T>): Struct<T, null> {
  return coerce(
    define<T>(name, (value) => !(value instanceof Problem) || value.text),
    string(),
    (raw) => parse(raw.trim()),
  );
}

const problem = (text: string) => new Problem(text);

/** A value as an error message shows it: quoted and escaped, so the message stays one line. */
const shown = (raw: string) => JSON.stringify(raw);

const oneOf =
  <T extends string>(choices: readonly T[]): Parser<T> =>
  (raw) =>
    (choices as readonly string[]).includes(raw) ? (raw as T) : problem(`must be one of ${choices.join(', ')}, got ${shown(raw)}`);

const booleanSetting: Parser<boolean> = (raw) => {
  const value = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  return problem(`must be true or false, got ${shown(raw)}`);
};

const integerSetting =
  (min: number, max: number): Parser<number> =>
  (raw) =>
    /^\d+$/u.test(raw) && Number(raw) >= min && Number(raw) <= max
      ? Number(raw)
      : problem(`must be a whole number from ${min} to ${max}, got ${shown(raw)}`);

const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `90`, `90s`, `15m`, `2h`, `30d`; a bare number is in `unit`. Result in seconds. */
const durationSetting =
  (unit: keyof typeof DURATION_UNITS, minSeconds: number): Parser<number> =>
  (raw) => {
    const match = /^(\d+)\s*([smhd]?)$/u.exec(raw);
    const seconds = match === null ? NaN : Number(match[1]) * DURATION_UNITS[(match[2] || unit) as keyof typeof DURATION_UNITS];
    if (!Number.isFinite(seconds) || seconds < minSeconds) {
      return problem(`must be a duration of at least ${minSeconds}s such as 90s, 15m, 2h or 30d (a bare number is in ${unit === 'm' ? 'minutes' : 'seconds'}), got ${shown(raw)}`);
    }
    return seconds;
  };

const SIZE_UNITS = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 } as const;

/** `1048576`, `512KB`, `10MB`, `1GB` (binary units). Result in bytes. */
const sizeSetting: Parser<number> = (raw) => {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/iu.exec(raw);
  const bytes = match === null ? NaN : Number(match[1]) * SIZE_UNITS[((match[2] ?? 'b').toLowerCase()) as keyof typeof SIZE_UNITS];
  return Number.isFinite(bytes) && bytes >= 1024 ? bytes : problem(`must be a size of at least 1KB such as 512KB, 10MB or 1GB, got ${shown(raw)}`);
};

const appUrlSetting: Parser<string> = (raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem('must be an absolute http(s) address such as https://example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem(`must start with http:// or https://, got ${shown(raw)}`);
  // The value is not repeated: it may hold a password.
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return problem('must not carry credentials, a query or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/u, '')}`;
};

const appKeySetting: Parser<Secret<Buffer>> = (raw) => {
  if (raw === '') return problem('is not set: run "npx fwx key:generate"');
  if (!raw.startsWith('base64:')) return problem('must be "base64:" followed by 32 random bytes in base64: run "npx fwx key:generate"');
  const encoded = raw.slice('base64:'.length);
  const bytes = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(encoded) || bytes.length !== 32) {
    return problem(`must hold exactly 32 bytes in base64 (it holds ${bytes.length}): run "npx fwx key:generate"`);
  }
  return new Secret(bytes);
};

const databaseSetting =
  (root: string): Parser<Config['database']> =>
  (raw) => {
    if (raw.startsWith('sqlite:')) {
      const path = raw.slice('sqlite:'.length);
      if (path === '') return problem('must name a file after "sqlite:", e.g. sqlite:storage/database.sqlite');
      return { engine: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : join(root, path) };
    }
    if (/^postgres(ql)?:\/\//u.test(raw)) {
      try {
        const url = new URL(raw);
        if (url.hostname === '' || url.pathname.length < 2) return problem('must name a host and a database, e.g. postgres://user@127.0.0.1:5432/app');
      } catch {
        return problem('is not a valid postgres:// address');
      }
      return { engine: 'postgres', url: new Secret(raw) };
    }
    return problem('must start with sqlite: or postgres:// (or postgresql://)');
  };

const TRUSTED_PROXY_HINT = 'must be *, or a comma list of IP addresses and CIDR ranges such as 10.0.0.0/8, ::1';

const trustedProxiesSetting: Parser<string[]> = (raw) => {
  const entries = list(raw);
  if (entries.length === 1 && entries[0] === '*') return ['*'];
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d+$/u.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || extra !== undefined) return problem(`${TRUSTED_PROXY_HINT}; ${shown(entry)} is neither`);
  }
  return entries;
};

const trustedHostsSetting: Parser<string[]> = (raw) => {
  const entries = list(raw).map((entry) => entry.toLowerCase());
  for (const entry of entries) {
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/u.test(entry)) {
      return problem(`must be a comma list of host names, optionally starting with "*." (e.g. example.com, *.example.com); ${shown(entry)} is not`);
    }
  }
  return entries;
};

const urlWithScheme =
  (schemes: string[], example: string): Parser<Secret> =>
  (raw) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/iu.exec(raw)?.[1]?.toLowerCase();
    return scheme !== undefined && schemes.includes(scheme)
      ? new Secret(raw)
      : problem(`must start with ${schemes.map((s) => `${s}:`).join(' or ')} (e.g. ${example})`);
  };

const mailFromSetting: Parser<string> = (raw) =>
  /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/u.test(raw) ? raw : problem(`must be an address such as "fw <no-reply@example.com>", got ${shown(raw)}`);

/** A BCP 47 language tag such as `en`, `de-CH` or `pt-BR`. */
const localeSetting: Parser<string> = (raw) =>
  /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/u.test(raw) ? raw : problem(`must be a language tag such as en, de-CH or pt-BR, got ${shown(raw)}`);

/** An IANA time zone the runtime knows (`Europe/Berlin`), or `UTC`. */
const timezoneSetting: Parser<string> = (raw) =>
  raw === 'UTC' || Intl.supportedValuesOf('timeZone').includes(raw) ? raw : problem(`must be a time zone such as UTC or Europe/Berlin, got ${shown(raw)}`);

/** An ISO 4217 currency code such as EUR or USD. */
const currencySetting: Parser<string> = (raw) =>
  Intl.supportedValuesOf('currency').includes(raw) ? raw : problem(`must be a currency code such as EUR or USD, got ${shown(raw)}`);

const nameSetting: Parser<string> = (raw) => (raw === '' ? problem('must not be empty') : raw);

const envNameSetting: Parser<string> = (raw) =>
  /^[a-z][a-z0-9_-]*$/u.test(raw) ? raw : problem(`must be a lower-case word such as local, production or testing, got ${shown(raw)}`);

const queuePrefixSetting: Parser<string> = (raw) =>
  /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/u.test(raw) ? raw : problem(`must be letters, digits and _ . : - (at most 64), got ${shown(raw)}`);

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function schema(root: string) {
  return type({
    APP_NAME: defaulted(setting('APP_NAME', nameSetting), 'fw'),
    APP_ENV: defaulted(setting('APP_ENV', envNameSetting), 'production'),
    APP_LOCALE: defaulted(setting('APP_LOCALE', localeSetting), 'en'),
    APP_TIMEZONE: defaulted(setting('APP_TIMEZONE', timezoneSetting), 'UTC'),
    APP_CURRENCY: defaulted(setting('APP_CURRENCY', currencySetting), 'USD'),
    APP_DEBUG: defaulted(setting('APP_DEBUG', booleanSetting), 'false'),
    APP_URL: optional(setting('APP_URL', appUrlSetting)),
    APP_KEY: defaulted(setting('APP_KEY', appKeySetting), ''),
    HOST: defaulted(setting('HOST', nameSetting), 'localhost'),
    PORT: defaulted(setting('PORT', integerSetting(0, 65_535)), '3000'),
    LOG_LEVEL: defaulted(setting('LOG_LEVEL', oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const)), 'info'),
    DATABASE_URL: defaulted(setting('DATABASE_URL', databaseSetting(root)), 'sqlite:storage/database.sqlite'),
    SESSION_DRIVER: defaulted(setting('SESSION_DRIVER', oneOf(['cookie', 'database'] as const)), 'cookie'),
    SESSION_LIFETIME: defaulted(setting('SESSION_LIFETIME', durationSetting('m', 60)), '120'),
    REMEMBER_LIFETIME: defaulted(setting('REMEMBER_LIFETIME', durationSetting('m', 60)), '30d'),
    UPLOAD_MAX_SIZE: defaulted(setting('UPLOAD_MAX_SIZE', sizeSetting), '10MB'),
    BODY_MAX_DEPTH: defaulted(setting('BODY_MAX_DEPTH', integerSetting(1, 512)), String(DEFAULT_BODY_MAX_DEPTH)),
    REQUEST_TIMEOUT: defaulted(setting('REQUEST_TIMEOUT', durationSetting('s', 1)), '30'),
    TRUSTED_PROXIES: defaulted(setting('TRUSTED_PROXIES', trustedProxiesSetting), ''),
    TRUSTED_HOSTS: defaulted(setting('TRUSTED_HOSTS', trustedHostsSetting), ''),
    // `fetch`: `serve` runs the kernel behind its fetch handler on node:http instead of hapi.
    HTTP_TRANSPORT: defaulted(setting('HTTP_TRANSPORT', oneOf(['hapi', 'fetch'] as const)), 'hapi'),
    CACHE_STORE: defaulted(setting('CACHE_STORE', oneOf(['memory', 'database', 'redis'] as const)), 'memory'),
    MAIL_URL: defaulted(setting('MAIL_URL', urlWithScheme(['smtp', 'smtps', 'log'], 'smtp://user:pass@smtp.example.com:587 or log:')), 'log:'),
    MAIL_FROM: defaulted(setting('MAIL_FROM', mailFromSetting), 'fw <no-reply@localhost>'),
    REDIS_URL: defaulted(setting('REDIS_URL', urlWithScheme(['redis', 'rediss'], 'redis://127.0.0.1:6379')), 'redis://127.0.0.1:6379'),
    SCHEDULER: defaulted(setting('SCHEDULER', booleanSetting), 'true'),
    QUEUE_CONNECTION: defaulted(setting('QUEUE_CONNECTION', oneOf(['database', 'redis', 'sync'] as const)), 'database'),
    QUEUE_PREFIX: defaulted(setting('QUEUE_PREFIX', queuePrefixSetting), 'fw'),
    QUEUE_SERVE_WORKERS: defaulted(setting('QUEUE_SERVE_WORKERS', integerSetting(0, 1000)), '1'),
    YOUNG_GENERATION: defaulted(setting('YOUNG_GENERATION', oneOf(['small', 'grow'] as const)), 'small'),
  });
}

/**
 * Builds the configuration from raw values (the `.env` file overlaid by the environment).
 * Empty values count as unset, like a commented-out line.
 */
export function parseConfig(values: EnvValues, root: string): Config {
  const present = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value.trim() !== ''));
  let v: ReturnType<typeof create<ReturnType<typeof schema>['TYPE'], unknown>>;
  try {
    v = create(present, schema(root));
  } catch (error) {
    if (!(error instanceof StructError)) throw error;
    const failure = error.failures()[0] ?? error;
    const variable = String(failure.key ?? failure.path[0] ?? 'configuration');
    throw new ConfigError(variable, failure.message);
  }
  const port = v.PORT;
  return {
    root,
    app: {
      name: v.APP_NAME,
      env: v.APP_ENV,
      debug: v.APP_DEBUG,
      locale: v.APP_LOCALE,
      timezone: v.APP_TIMEZONE,
      currency: v.APP_CURRENCY,
      url: v.APP_URL ?? `http://localhost:${port}`,
      key: v.APP_KEY,
    },
    server: { host: v.HOST, port },
    log: { level: v.LOG_LEVEL },
    database: v.DATABASE_URL,
    session: {
      driver: v.SESSION_DRIVER,
      lifetimeMinutes: Math.ceil(v.SESSION_LIFETIME / 60),
      rememberLifetimeMinutes: Math.ceil(v.REMEMBER_LIFETIME / 60),
    },
    http: {
      uploadMaxBytes: v.UPLOAD_MAX_SIZE,
      bodyMaxDepth: v.BODY_MAX_DEPTH,
      requestTimeoutMs: v.REQUEST_TIMEOUT * 1000,
      trustedProxies: v.TRUSTED_PROXIES,
      trustedHosts: v.TRUSTED_HOSTS,
      transport: v.HTTP_TRANSPORT,
    },
    cache: { store: v.CACHE_STORE },
    mail: { url: v.MAIL_URL, from: v.MAIL_FROM },
    redis: { url: v.REDIS_URL },
    scheduler: { enabled: v.SCHEDULER },
    queue: { connection: v.QUEUE_CONNECTION, prefix: v.QUEUE_PREFIX, serveWorkers: v.QUEUE_SERVE_WORKERS },
    memory: { youngGeneration: v.YOUNG_GENERATION },
    env: (name) => present[name],
  };
}

export interface LoadConfigOptions {
  root: string;
  /** The process environment; it wins over the file. */
  environment?: EnvValues;
  /** The `.env` file to read, relative to `root`; `false` reads none (tests). */
  envFile?: string | false;
}

/** Reads `.env` and the environment once into a validated `Config`; throws `ConfigError`. */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const envFile = options.envFile ?? '.env';
  const fileValues = envFile === false ? {} : await readEnvFile(join(options.root, envFile));
  return parseConfig({ ...fileValues, ...(options.environment ?? {}) }, options.root);
}
