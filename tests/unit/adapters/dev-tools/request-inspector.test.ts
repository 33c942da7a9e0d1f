import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../../../adapters/http/dev-tools/redact.js';
import { RequestInspector, sessionChanges } from '../../../../adapters/http/dev-tools/request-inspector.js';
import { Secret } from '../../../../domain/shared/secret.js';

describe('what the request inspector keeps of a value', () => {
  it.each([
    ['password', 'password'],
    ['password_confirmation', 'password_confirmation'],
    ['current_password', 'current_password'],
    ['passwordHash', 'passwordHash'],
    ['_token', '_token'],
    ['remember_token', 'remember_token'],
    ['access_token', 'access_token'],
    ['client_secret', 'client_secret'],
    ['APP_KEY', 'APP_KEY'],
    ['cookie', 'cookie'],
    ['Authorization', 'Authorization'],
    ['code (OAuth)', 'code'],
    ['code_verifier', 'code_verifier'],
    ['otp', 'otp'],
  ])('redacts %s', (_name, key) => {
    const kept = JSON.stringify(redact({ [key]: 'VALUE-TO-HIDE', around: 'kept' }));
    expect(kept).toBe(`{"${key}":"${REDACTED}","around":"kept"}`);
  });

  it('redacts at any depth and keeps what is not secret', () => {
    expect(redact({ input: { email: 'ada@example.com', nested: [{ password: 'p' }] }, headers: { cookie: 'c' } })).toEqual({
      input: { email: 'ada@example.com', nested: [{ password: REDACTED }] },
      headers: { cookie: REDACTED },
    });
  });

  it('prints a Secret as it chooses, cuts long text and bounds depth', () => {
    expect(redact({ url: new Secret('postgres://user:pw@host/db') })).toEqual({ url: '[secret]' });
    expect(String(redact('x'.repeat(1000))).length).toBe(301);
    expect(redact({ a: { b: { c: { d: { e: 1 } } } } })).toEqual({ a: { b: { c: { d: '[…]' } } } });
  });
});

describe('session changes', () => {
  it('lists keys added, changed and removed, flashed keys apart, the user as `user`, secrets redacted', () => {
    const before = { values: { cart: 1, gone: true }, flash: { status: 'old' }, userId: null };
    const after = { values: { cart: 2, api_token: 'tok' }, flash: { status: 'saved' }, userId: 7 };
    expect(sessionChanges(before, after)).toEqual([
      { change: 'added', key: 'user', value: '7' },
      { change: 'changed', key: 'cart', value: '2' },
      { change: 'added', key: 'api_token', value: '"[redacted]"' },
      { change: 'removed', key: 'gone', value: '' },
      { change: 'changed', key: 'flash.status', value: '"saved"' },
    ]);
  });
});

describe('the ring', () => {
  it('keeps the newest `capacity` requests and files records under the current request', () => {
    let current: string | null = null;
    const inspector = new RequestInspector(() => current, 2);
    for (const id of ['a', 'b', 'c']) {
      const request = inspector.begin({ id, method: 'GET', path: `/${id}`, route: null, at: new Date(0) });
      current = id;
      inspector.recordQuery('SELECT 1', 0, 0.5);
      inspector.finish(request, { status: 200, ms: 1, userId: null, before: null, after: null });
    }
    expect(inspector.list().map((request) => request.id)).toEqual(['c', 'b']);
    expect(inspector.find('a')).toBeNull();
    expect(inspector.find('b')?.queries).toEqual([{ sql: 'SELECT 1', bindings: 0, ms: 0.5 }]);
    current = null;
    inspector.recordQuery('SELECT 2', 0, 1);
    inspector.recordLog('info', 'request', { requestId: 'b', status: 200 });
    expect(inspector.find('c')?.queries).toHaveLength(1);
    expect(inspector.find('b')?.logs).toEqual([{ level: 'info', message: 'request', fields: '{"status":200}' }]);
  });
});
