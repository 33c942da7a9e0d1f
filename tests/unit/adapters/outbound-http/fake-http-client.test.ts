import { describe, expect, it } from 'vitest';
import { FakeHttpClient } from '../../../../adapters/outbound-http/fake-http-client.js';

describe('FakeHttpClient', () => {
  it('answers a registered method and URL with JSON', async () => {
    const fake = new FakeHttpClient().on('POST', 'https://github.com/login/oauth/access_token', { json: { access_token: 'tok', token_type: 'bearer' } });
    const response = await fake.fetch('https://github.com/login/oauth/access_token', { method: 'POST', body: new URLSearchParams({ code: 'c' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ access_token: 'tok', token_type: 'bearer' });
  });

  it('answers with the status, body and headers given', async () => {
    const fake = new FakeHttpClient().on('GET', 'https://api.example.test/user', { status: 503, body: 'down', headers: { 'retry-after': '5' } });
    const response = await fake.fetch('https://api.example.test/user');
    expect([response.status, await response.text(), response.headers.get('retry-after')]).toEqual([503, 'down', '5']);
  });

  it('fails loudly, naming method and URL, when nothing answers a call', async () => {
    const fake = new FakeHttpClient().on('GET', 'https://api.example.test/user', { json: {} });
    await expect(fake.fetch('https://api.example.test/user', { method: 'POST' })).rejects.toThrow('FakeHttpClient: no answer registered for POST https://api.example.test/user');
    await expect(fake.fetch('https://api.example.test/user/emails')).rejects.toThrow('GET https://api.example.test/user/emails');
  });

  it('matches a string exactly, a string ending in * as a prefix, and a RegExp', async () => {
    const fake = new FakeHttpClient()
      .on('GET', 'https://a.test', { body: 'exact' })
      .on('GET', 'https://b.test/api/*', { body: 'prefix' })
      .on('GET', /^https:\/\/c\.test\/users\/\d+$/u, { body: 'regexp' });
    expect(await (await fake.fetch('https://a.test/')).text()).toBe('exact');
    await expect(fake.fetch('https://a.test/more')).rejects.toThrow('no answer');
    expect(await (await fake.fetch('https://b.test/api/user?x=1')).text()).toBe('prefix');
    await expect(fake.fetch('https://b.test/other')).rejects.toThrow('no answer');
    expect(await (await fake.fetch('https://c.test/users/42')).text()).toBe('regexp');
    await expect(fake.fetch('https://c.test/users/42/x')).rejects.toThrow('no answer');
  });

  it('lets a later registration override an earlier one', async () => {
    const fake = new FakeHttpClient().on('GET', 'https://a.test/', { status: 200 }).on('get', 'https://a.test/', { status: 500 });
    expect((await fake.fetch('https://a.test/')).status).toBe(500);
  });

  it('records every call: method, URL, lower-case headers and the body as text', async () => {
    const fake = new FakeHttpClient().on('POST', 'https://t.test/token', { json: {} });
    await fake.fetch('https://t.test/token', { method: 'post', headers: { Accept: 'application/json' }, body: new URLSearchParams({ code_verifier: 'v', code: 'c' }) });
    await fake.fetch('https://t.test/missing').catch(() => undefined);
    expect(fake.calls).toEqual([
      { method: 'POST', url: 'https://t.test/token', headers: { accept: 'application/json' }, body: 'code_verifier=v&code=c' },
      { method: 'GET', url: 'https://t.test/missing', headers: {}, body: null },
    ]);
  });

  it('hands the request to a function answer, whose throw is a network failure', async () => {
    let count = 0;
    const fake = new FakeHttpClient()
      .on('GET', 'https://a.test/count', () => ({ json: { count: ++count } }))
      .on('POST', 'https://a.test/echo', (request) => new Response(request.body, { status: 201 }))
      .on('GET', 'https://a.test/down', () => {
        throw new TypeError('fetch failed');
      });
    await fake.fetch('https://a.test/count');
    expect(await (await fake.fetch('https://a.test/count')).json()).toEqual({ count: 2 });
    const echo = await fake.fetch('https://a.test/echo', { method: 'POST', body: 'hello' });
    expect([echo.status, await echo.text()]).toEqual([201, 'hello']);
    await expect(fake.fetch('https://a.test/down')).rejects.toThrow('fetch failed');
  });

  it('rejects a call whose signal has already aborted, as fetch does', async () => {
    const fake = new FakeHttpClient().on('GET', 'https://a.test/', { status: 200 });
    await expect(fake.fetch('https://a.test/', { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('forgets answers and calls on reset', async () => {
    const fake = new FakeHttpClient().on('GET', 'https://a.test/', { status: 200 });
    await fake.fetch('https://a.test/');
    fake.reset();
    expect(fake.calls).toEqual([]);
    await expect(fake.fetch('https://a.test/')).rejects.toThrow('no answer');
  });
});
