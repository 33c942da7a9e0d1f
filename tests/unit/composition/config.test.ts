import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../composition/config.js';
import type { Config } from '../../../composition/config.js';
import type { EnvValues } from '../../../composition/env-file.js';

const ROOT = '/srv/app';
const KEY_BYTES = randomBytes(32);
const APP_KEY = `base64:${KEY_BYTES.toString('base64')}`;

/** The configuration for `values` on top of a valid APP_KEY. */
function config(values: EnvValues = {}): Config {
  return parseConfig({ APP_KEY, ...values }, ROOT);
}

/** The ConfigError that `values` (on top of a valid APP_KEY) lead to. */
function configError(values: EnvValues): ConfigError {
  try {
    config(values);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(values)}`);
}

describe('parseConfig defaults', () => {
  const c = config();

  it.each<[string, (c: Config) => unknown, unknown]>([
    ['APP_NAME', (c) => c.app.name, 'fw'],
    ['APP_ENV', (c) => c.app.env, 'production'],
    ['APP_DEBUG', (c) => c.app.debug, false],
    ['APP_URL', (c) => c.app.url, 'http://localhost:3000'],
    ['HOST', (c) => c.server.host, 'localhost'],
    ['PORT', (c) => c.server.port, 3000],
    ['LOG_LEVEL', (c) => c.log.level, 'info'],
    ['DATABASE_URL', (c) => c.database, { engine: 'sqlite', path: join(ROOT, 'storage', 'database.sqlite') }],
    ['SESSION_DRIVER', (c) => c.session.driver, 'cookie'],
    ['SESSION_LIFETIME (minutes)', (c) => c.session.lifetimeMinutes, 120],
    ['REMEMBER_LIFETIME (minutes, 30 days)', (c) => c.session.rememberLifetimeMinutes, 43_200],
    ['UPLOAD_MAX_SIZE (10 MiB)', (c) => c.http.uploadMaxBytes, 10_485_760],
    ['REQUEST_TIMEOUT (ms)', (c) => c.http.requestTimeoutMs, 30_000],
    ['TRUSTED_PROXIES', (c) => c.http.trustedProxies, []],
    ['TRUSTED_HOSTS', (c) => c.http.trustedHosts, []],
    ['CACHE_STORE', (c) => c.cache.store, 'memory'],
    ['MAIL_URL', (c) => c.mail.url.reveal(), 'log:'],
    ['MAIL_FROM', (c) => c.mail.from, 'fw <no-reply@localhost>'],
    ['REDIS_URL', (c) => c.redis.url.reveal(), 'redis://127.0.0.1:6379'],
    ['YOUNG_GENERATION', (c) => c.memory.youngGeneration, 'small'],
  ])('%s defaults to %j when only APP_KEY is set', (_variable, read, expected) => {
    expect(read(c)).toEqual(expected);
  });

  it('keeps the root and decodes APP_KEY into its 32 bytes', () => {
    expect(c.root).toBe(ROOT);
    expect(c.app.key.reveal()).toEqual(KEY_BYTES);
  });

  it('the default APP_URL follows PORT', () => {
    expect(config({ PORT: '8080' }).app.url).toBe('http://localhost:8080');
  });

  it('a given APP_URL wins, lower-cased host and no trailing slash', () => {
    expect(config({ PORT: '8080', APP_URL: 'https://Example.COM/base/' }).app.url).toBe('https://example.com/base');
  });

  it('empty and blank values count as unset', () => {
    const blank = config({ PORT: '', APP_ENV: '   ', DATABASE_URL: '', SESSION_LIFETIME: '', TRUSTED_HOSTS: ' ', LOG_LEVEL: undefined });
    expect(blank.server.port).toBe(3000);
    expect(blank.app.env).toBe('production');
    expect(blank.database).toEqual({ engine: 'sqlite', path: join(ROOT, 'storage', 'database.sqlite') });
    expect(blank.session.lifetimeMinutes).toBe(120);
    expect(blank.http.trustedHosts).toEqual([]);
    expect(blank.log.level).toBe('info');
  });

  it('trims values', () => {
    expect(config({ PORT: ' 8080 ', APP_ENV: ' local\t' })).toMatchObject({ server: { port: 8080 }, app: { env: 'local' } });
  });
});

describe('parseConfig refuses bad values with one line naming the variable', () => {
  const sixteenBytes = `base64:${Buffer.alloc(16, 1).toString('base64')}`;

  it.each([
    ['APP_KEY', '', 'is not set'],
    ['APP_KEY', KEY_BYTES.toString('base64'), 'must be "base64:"'],
    ['APP_KEY', sixteenBytes, 'must hold exactly 32 bytes in base64 (it holds 16)'],
    ['APP_KEY', 'base64:not base64 at all!', 'must hold exactly 32 bytes'],
    ['PORT', 'abc', 'must be a whole number from 0 to 65535, got "abc"'],
    ['PORT', '70000', 'must be a whole number from 0 to 65535, got "70000"'],
    ['PORT', '-1', 'must be a whole number'],
    ['APP_DEBUG', 'maybe', 'must be true or false, got "maybe"'],
    ['APP_URL', 'ftp://x', 'must start with http:// or https://'],
    ['APP_URL', 'https://example.com/?page=1', 'must not carry credentials, a query or a fragment'],
    ['APP_URL', 'https://example.com/#top', 'must not carry credentials, a query or a fragment'],
    ['APP_URL', 'example.com', 'must be an absolute http(s) address'],
    ['DATABASE_URL', 'mysql://x', 'must start with sqlite: or postgres://'],
    ['DATABASE_URL', 'sqlite:', 'must name a file after "sqlite:"'],
    ['DATABASE_URL', 'postgres://db.example.com', 'must name a host and a database'],
    ['SESSION_DRIVER', 'redis', 'must be one of cookie, database, got "redis"'],
    ['SESSION_LIFETIME', '0', 'must be a duration of at least 60s'],
    ['SESSION_LIFETIME', '30s', 'must be a duration of at least 60s'],
    ['REMEMBER_LIFETIME', '10x', 'must be a duration'],
    ['UPLOAD_MAX_SIZE', '10TB', 'must be a size of at least 1KB'],
    ['UPLOAD_MAX_SIZE', '512', 'must be a size of at least 1KB'],
    ['REQUEST_TIMEOUT', '0', 'must be a duration of at least 1s'],
    ['TRUSTED_PROXIES', '10.0.0.0/33', '"10.0.0.0/33" is neither'],
    ['TRUSTED_PROXIES', '::1/129', '"::1/129" is neither'],
    ['TRUSTED_PROXIES', 'not-an-ip', '"not-an-ip" is neither'],
    ['TRUSTED_PROXIES', '10.0.0.1, *', '"*" is neither'],
    ['TRUSTED_HOSTS', 'bad_host!', '"bad_host!" is not'],
    ['TRUSTED_HOSTS', 'example.com, a..b', '"a..b" is not'],
    ['CACHE_STORE', 'disk', 'must be one of memory, database, redis, got "disk"'],
    ['MAIL_URL', 'http://x', 'must start with smtp: or smtps: or log:'],
    ['MAIL_FROM', 'nobody', 'must be an address'],
    ['REDIS_URL', 'http://x', 'must start with redis: or rediss:'],
    ['LOG_LEVEL', 'loud', 'must be one of trace, debug, info, warn, error, fatal, silent, got "loud"'],
    ['APP_ENV', 'Prod', 'must be a lower-case word'],
  ])('%s=%j: "%s"', (variable, value, fragment) => {
    const error = configError({ [variable]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.name).toBe('ConfigError');
    expect(error.variable).toBe(variable);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message.startsWith(`Invalid configuration: ${variable} `)).toBe(true);
    expect(error.message).toContain(fragment);
  });

  it('a missing APP_KEY is refused even when the variable is absent altogether', () => {
    expect(() => parseConfig({}, ROOT)).toThrow(ConfigError);
    expect(() => parseConfig({}, ROOT)).toThrow(/^Invalid configuration: APP_KEY is not set/u);
  });

  it.each([
    ['DATABASE_URL', 'postgres://app:hunter2-db@db.example.com', 'hunter2-db'],
    ['MAIL_URL', 'http://mailer:hunter2-mail@smtp.example.com', 'hunter2-mail'],
    ['REDIS_URL', 'http://:hunter2-redis@cache:6379', 'hunter2-redis'],
    ['APP_KEY', 'hunter2-key', 'hunter2-key'],
  ])('a refused %s is not echoed back with its password', (variable, value, password) => {
    const error = configError({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(password);
  });
});

describe('parseConfig reads unit spellings', () => {
  it.each<[string, string, number, (c: Config) => number]>([
    ['SESSION_LIFETIME', '2h', 120, (c) => c.session.lifetimeMinutes],
    ['SESSION_LIFETIME', '90m', 90, (c) => c.session.lifetimeMinutes],
    ['SESSION_LIFETIME', '90', 90, (c) => c.session.lifetimeMinutes],
    ['SESSION_LIFETIME', '1d', 1440, (c) => c.session.lifetimeMinutes],
    ['SESSION_LIFETIME', '3600s', 60, (c) => c.session.lifetimeMinutes],
    ['REMEMBER_LIFETIME', '7d', 10_080, (c) => c.session.rememberLifetimeMinutes],
    ['REQUEST_TIMEOUT', '2m', 120_000, (c) => c.http.requestTimeoutMs],
    ['REQUEST_TIMEOUT', '45', 45_000, (c) => c.http.requestTimeoutMs],
    ['REQUEST_TIMEOUT', '1s', 1000, (c) => c.http.requestTimeoutMs],
    ['UPLOAD_MAX_SIZE', '512KB', 524_288, (c) => c.http.uploadMaxBytes],
    ['UPLOAD_MAX_SIZE', '1GB', 1_073_741_824, (c) => c.http.uploadMaxBytes],
    ['UPLOAD_MAX_SIZE', '2097152', 2_097_152, (c) => c.http.uploadMaxBytes],
    ['UPLOAD_MAX_SIZE', '10mb', 10_485_760, (c) => c.http.uploadMaxBytes],
    ['UPLOAD_MAX_SIZE', '1024', 1024, (c) => c.http.uploadMaxBytes],
    ['PORT', '0', 0, (c) => c.server.port],
    ['PORT', '65535', 65_535, (c) => c.server.port],
  ])('%s=%s gives %s', (variable, value, expected, read) => {
    expect(read(config({ [variable]: value }))).toBe(expected);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['Off', false],
  ])('APP_DEBUG=%s is %s', (value, expected) => {
    expect(config({ APP_DEBUG: value }).app.debug).toBe(expected);
  });
});

describe('parseConfig databases', () => {
  it.each(['postgres://app:pw@db.example.com:5432/app', 'postgresql://app:pw@db.example.com/app'])(
    '%s selects postgres and keeps the URL as a secret',
    (url) => {
      const { database } = config({ DATABASE_URL: url });
      expect(database.engine).toBe('postgres');
      if (database.engine !== 'postgres') return;
      expect(String(database.url)).toBe('[secret]');
      expect(database.url.reveal()).toBe(url);
    },
  );

  it.each([
    ['sqlite:/var/lib/app/data.db', '/var/lib/app/data.db'],
    ['sqlite:rel.db', join(ROOT, 'rel.db')],
    ['sqlite:storage/other.sqlite', join(ROOT, 'storage', 'other.sqlite')],
    ['sqlite::memory:', ':memory:'],
  ])('%s is the sqlite file %s', (url, path) => {
    expect(config({ DATABASE_URL: url }).database).toEqual({ engine: 'sqlite', path });
  });
});

describe('parseConfig trusted proxies and hosts', () => {
  it.each([
    ['*', ['*']],
    [' * ', ['*']],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1 ,::1, fe80::/10,2001:db8::/32', ['10.0.0.0/8', '192.168.1.1', '::1', 'fe80::/10', '2001:db8::/32']],
    ['127.0.0.1/32,,', ['127.0.0.1/32']],
  ])('TRUSTED_PROXIES=%j is %j', (value, expected) => {
    expect(config({ TRUSTED_PROXIES: value }).http.trustedProxies).toEqual(expected);
  });

  it.each([
    ['example.com', ['example.com']],
    ['Example.COM, *.Example.com, localhost', ['example.com', '*.example.com', 'localhost']],
    ['api-1.example.org', ['api-1.example.org']],
  ])('TRUSTED_HOSTS=%j is %j', (value, expected) => {
    expect(config({ TRUSTED_HOSTS: value }).http.trustedHosts).toEqual(expected);
  });
});

describe('parseConfig secrets', () => {
  const passwords = { database: 'pg-pass-9d1f', mail: 'mail-pass-4b7e', redis: 'redis-pass-a3c2' };
  const printed = config({
    DATABASE_URL: `postgres://app:${passwords.database}@db.example.com:5432/app`,
    MAIL_URL: `smtp://mailer:${passwords.mail}@smtp.example.com:587`,
    REDIS_URL: `redis://:${passwords.redis}@cache.example.com:6379`,
    PROVIDER_A_CLIENT_SECRET: 'provider-secret-77',
  });
  const forbidden = [APP_KEY, KEY_BYTES.toString('base64'), KEY_BYTES.toString('hex'), passwords.database, passwords.mail, passwords.redis, 'provider-secret-77'];

  it.each([
    ['JSON.stringify', () => JSON.stringify(printed)],
    ['util.inspect', () => inspect(printed, { depth: 10 })],
    ['String', () => `${String(printed.app.key)} ${String(printed.mail.url)} ${String(printed.redis.url)}`],
  ])('%s shows no secret', (_how, print) => {
    const text = print();
    expect(text).toContain('[secret]');
    for (const secret of forbidden) expect(text).not.toContain(secret);
  });

  it('the secrets are still there for the code that reveals them', () => {
    expect(printed.mail.url.reveal()).toContain(passwords.mail);
    expect(printed.redis.url.reveal()).toContain(passwords.redis);
    expect(printed.database.engine === 'postgres' && printed.database.url.reveal()).toContain(passwords.database);
  });
});

describe('config.env', () => {
  const c = config({ PROVIDER_A_CLIENT_ID: 'client-123', PROVIDER_A_EMPTY: '' });

  it.each<[string, string | undefined]>([
    ['PROVIDER_A_CLIENT_ID', 'client-123'],
    ['PROVIDER_A_EMPTY', undefined],
    ['PROVIDER_B_CLIENT_ID', undefined],
  ])('env(%j) is %j', (name, expected) => {
    expect(c.env(name)).toBe(expected);
  });
});

describe('config errors stay safe to print', () => {
  const key = `base64:${Buffer.alloc(32, 3).toString('base64')}`;

  it('does not repeat a password given in APP_URL', () => {
    expect(() => parseConfig({ APP_KEY: key, APP_URL: 'http://u:hunter2@x.com' }, '/app')).toThrow(
      'Invalid configuration: APP_URL must not carry credentials, a query or a fragment',
    );
    try {
      parseConfig({ APP_KEY: key, APP_URL: 'http://u:hunter2@x.com' }, '/app');
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it.each(['PORT', 'APP_DEBUG', 'SESSION_DRIVER', 'APP_ENV', 'UPLOAD_MAX_SIZE', 'TRUSTED_HOSTS', 'MAIL_FROM'])(
    'keeps the message on one line when %s holds a newline',
    (variable) => {
      let message = '';
      try {
        parseConfig({ APP_KEY: key, [variable]: '1\n2' }, '/app');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} `, 'u'));
      expect(message).not.toContain('\n');
    },
  );
});

describe('APP_LOCALE', () => {
  const key = `base64:${Buffer.alloc(32, 3).toString('base64')}`;

  it.each([
    [undefined, 'en'],
    ['de', 'de'],
    ['de-CH', 'de-CH'],
    ['pt-BR', 'pt-BR'],
  ])('%s gives %s', (value, expected) => {
    expect(parseConfig(value === undefined ? { APP_KEY: key } : { APP_KEY: key, APP_LOCALE: value }, '/app').app.locale).toBe(expected);
  });

  it.each(['EN', 'english', 'de_CH', 'x'])('refuses %j in one line', (value) => {
    expect(() => parseConfig({ APP_KEY: key, APP_LOCALE: value }, '/app')).toThrow(/^Invalid configuration: APP_LOCALE must be a language tag/u);
  });
});

describe('APP_TIMEZONE and SCHEDULER (the scheduler)', () => {
  const key = `base64:${Buffer.alloc(32, 3).toString('base64')}`;

  it.each([
    [undefined, 'UTC'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
  ])('APP_TIMEZONE %s gives %s', (value, expected) => {
    expect(parseConfig(value === undefined ? { APP_KEY: key } : { APP_KEY: key, APP_TIMEZONE: value }, '/app').app.timezone).toBe(expected);
  });

  it.each(['Mars/Olympus', 'CEST+2', 'Europe/'])('refuses APP_TIMEZONE %j in one line', (value) => {
    expect(() => parseConfig({ APP_KEY: key, APP_TIMEZONE: value }, '/app')).toThrow(/^Invalid configuration: APP_TIMEZONE must be a time zone such as UTC or Europe\/Berlin/u);
  });

  it.each([
    [undefined, true],
    ['false', false],
    ['0', false],
    ['true', true],
  ])('SCHEDULER %s gives %s', (value, expected) => {
    expect(parseConfig(value === undefined ? { APP_KEY: key } : { APP_KEY: key, SCHEDULER: value }, '/app').scheduler.enabled).toBe(expected);
  });
});

describe('APP_TIMEZONE and APP_CURRENCY', () => {
  const key = `base64:${Buffer.alloc(32, 3).toString('base64')}`;

  it('default to UTC and USD', () => {
    const { app } = parseConfig({ APP_KEY: key }, '/app');
    expect([app.timezone, app.currency]).toEqual(['UTC', 'USD']);
  });

  it('take an IANA zone and an ISO 4217 code', () => {
    const { app } = parseConfig({ APP_KEY: key, APP_TIMEZONE: 'Europe/Berlin', APP_CURRENCY: 'EUR' }, '/app');
    expect([app.timezone, app.currency]).toEqual(['Europe/Berlin', 'EUR']);
  });

  it.each([
    ['APP_TIMEZONE', 'Mars/Olympus', /APP_TIMEZONE must be a time zone/u],
    ['APP_CURRENCY', 'euro', /APP_CURRENCY must be a currency code/u],
  ])('refuses %s=%j in one line', (name, value, message) => {
    expect(() => parseConfig({ APP_KEY: key, [name]: value }, '/app')).toThrow(message);
  });
});

describe('YOUNG_GENERATION', () => {
  it('takes grow, and refuses anything but small or grow in one line', () => {
    expect(config({ YOUNG_GENERATION: 'grow' }).memory.youngGeneration).toBe('grow');
    const error = configError({ YOUNG_GENERATION: 'huge' });
    expect(error.variable).toBe('YOUNG_GENERATION');
    expect(error.message.split('\n')).toHaveLength(1);
  });
});
