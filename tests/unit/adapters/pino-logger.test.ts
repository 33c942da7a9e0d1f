import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PinoLogger } from '../../../adapters/log/pino-logger.js';
import { Secret } from '../../../domain/shared/secret.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { lines, destination };
}

describe('PinoLogger', () => {
  it('writes JSON lines with level, message, time and fields, and child fields on every line', () => {
    const { lines, destination } = capture();
    const logger = PinoLogger.create({ level: 'info', pretty: false, destination }).child({ requestId: 'req-12345678' });
    logger.info('user created', { userId: 7 });
    logger.debug('not at this level');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'info', msg: 'user created', userId: 7, requestId: 'req-12345678' });
    expect(typeof line['time']).toBe('string');
  });

  it('gives a child of a child every binding, and writes nothing below the level', () => {
    const { lines, destination } = capture();
    const logger = PinoLogger.create({ level: 'warn', pretty: false, destination });
    const span = logger.child({ requestId: 'req-1' }).child({ userId: 9 });
    span.info('not written');
    span.warn('written', { extra: true });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'written', requestId: 'req-1', userId: 9, extra: true });
  });

  it('never writes secrets, whatever field they hide in', () => {
    const { lines, destination } = capture();
    const logger = PinoLogger.create({ level: 'trace', pretty: false, destination });
    logger.warn('sign-in failed', {
      password: 'hunter2-password',
      token: 'reset-token-value',
      appKey: new Secret('base64:super-secret-key'),
      headers: { authorization: 'Bearer api-token-value', cookie: 'fw_session=sealed-cookie-value' },
      body: { current_password: 'old-password-value', client_secret: 'client-secret-value', code: 'auth-code-value' },
      databaseUrl: new Secret('postgres://app:db-password@db/app'),
    });
    const text = lines.join('\n');
    for (const secret of ['hunter2', 'reset-token-value', 'super-secret-key', 'api-token-value', 'sealed-cookie-value', 'old-password-value', 'client-secret-value', 'auth-code-value', 'db-password']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('sign-in failed');
    expect(text).toContain('[redacted]');
    expect(text).toContain('[secret]');
  });

  it('writes readable lines for a developer when pretty', () => {
    const { lines, destination } = capture();
    const logger = PinoLogger.create({ level: 'info', pretty: true, destination });
    logger.info('serving', { url: 'http://localhost:3000' });
    expect(lines.join('\n')).toMatch(/serving/u);
  });
});
