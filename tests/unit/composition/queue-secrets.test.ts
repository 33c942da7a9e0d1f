import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../composition/config.js';
import { redactor, secretsOf } from '../../../composition/queue.js';
import { TEST_APP_KEY } from '../../support/databases.js';

describe('the secrets a failed job or a log line must not carry', () => {
  const config = parseConfig(
    {
      APP_KEY: TEST_APP_KEY,
      DATABASE_URL: 'postgres://app:db%40pass%2Fword@127.0.0.1:5432/app',
      REDIS_URL: 'redis://:redis-secret-1@127.0.0.1:6379',
      MAIL_URL: 'smtp://mailer:m%3Ail-pass@smtp.example.com:587',
    },
    '/tmp',
  );
  const redact = redactor(secretsOf(config));

  it.each([
    ['the database password, decoded', 'auth failed for "db@pass/word"'],
    ['the database password, as written in the URL', 'connect postgres://app:db%40pass%2Fword@127.0.0.1'],
    ['the Redis password', 'WRONGPASS redis-secret-1'],
    ['the mail password, decoded and as written', 'AUTH m:il-pass / m%3Ail-pass'],
    ['the APP_KEY', `key ${TEST_APP_KEY.slice('base64:'.length)}`],
  ])('hides %s', (_name, text) => {
    const out = redact(text);
    for (const secret of ['db@pass/word', 'db%40pass%2Fword', 'redis-secret-1', 'm:il-pass', 'm%3Ail-pass', TEST_APP_KEY.slice('base64:'.length)]) expect(out).not.toContain(secret);
    expect(out).toContain('[secret]');
  });
});
