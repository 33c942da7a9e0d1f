/**
 * Small urlencoded form posts are read and answered before hapi's request lifecycle
 * (adapters/http/hapi/page-first.ts): the body read as hapi's payload step reads it, checked as
 * hapi's dispatcher checks it, a redirect or a 200 written here with the headers hapi gives it,
 * anything else handed to hapi to write. Each case is compared with the same request sent
 * through hapi (an `If-Modified-Since` header sends a request to hapi, changing nothing else).
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpAbort } from '../../../adapters/http/kernel/http-error.js';
import { Redirect, Routes, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-form-first-');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const VIA_HAPI = { 'if-modified-since': 'x' };

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString() }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The header names of an answer, without those that differ between any two answers. */
function names(raw: Raw): string[] {
  return Object.keys(raw.headers)
    .filter((name) => name !== 'date' && name !== 'connection' && name !== 'keep-alive')
    .sort();
}

describe('form posts answered before hapi', () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, BODY_MAX_DEPTH: '4' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'form-first',
          routes: new Routes()
            .post('/go', () => Redirect.to('/done'))
            .post('/echo', (ctx) => json({ body: ctx.body() }))
            .post('/refuse', () => {
              throw new HttpAbort(422, 'These credentials do not match our records.');
            })
            .withoutCsrf()
            .post('/guarded', () => json({ saved: true })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('sends a redirect with the headers hapi sends for it, and logs it', async () => {
    const here = await post(`${server.url}/go`, 'a=1');
    const viaHapi = await post(`${server.url}/go`, 'a=1', VIA_HAPI);
    expect(here.status).toBe(viaHapi.status);
    expect(here.status).toBe(303);
    expect(here.headers['location']).toBe('/done');
    expect(names(here)).toEqual(names(viaHapi));
    expect(here.headers['content-length']).toBe('0');
    for (const name of names(viaHapi).filter((header) => !['x-request-id', 'content-security-policy', 'set-cookie'].includes(header))) expect(here.headers[name], name).toEqual(viaHapi.headers[name]);
    expect(here.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/u);
    expect(String(here.headers['content-security-policy'])).toMatch(/'nonce-[^']+'/u);
    expect(String(here.headers['set-cookie'])).toMatch(/^fw_session=Fe26\.2\*/u);
    const line = app.logs.find((logged) => logged.message === 'request' && logged.fields['requestId'] === here.headers['x-request-id']);
    expect(line?.fields).toMatchObject({ method: 'POST', path: '/go', status: 303 });
  });

  it.each([
    ['plain fields', 'name=Ada&email=ada%40example.com'],
    ['repeated names', 'tag=a&tag=b&tag=c'],
    ['bracketed names', 'address[city]=Paris&items[0][name]=x&items[1][name]=y'],
    ['an empty body', ''],
    ['plus signs and UTF-8', 'q=caf%C3%A9+au+lait&r=%E2%9C%93'],
  ])('gives the handler the fields hapi gives it: %s', async (_, body) => {
    const here = await post(`${server.url}/echo`, body);
    const viaHapi = await post(`${server.url}/echo`, body, VIA_HAPI);
    expect(here.status).toBe(200);
    expect(JSON.parse(here.body)).toEqual(JSON.parse(viaHapi.body));
    expect(names(here)).toEqual(names(viaHapi));
  });

  it('refuses a form nested past BODY_MAX_DEPTH with the 400 page hapi gives', async () => {
    const body = 'a[b][c][d][e][f]=1';
    const here = await post(`${server.url}/echo`, body);
    const viaHapi = await post(`${server.url}/echo`, body, VIA_HAPI);
    expect(here.status).toBe(400);
    expect(viaHapi.status).toBe(400);
    expect(names(here)).toEqual(names(viaHapi));
    expect(here.body.replace(/nonce-?[^"']*|[0-9a-f]{32}|content="[^"]*"/gu, '')).toBe(viaHapi.body.replace(/nonce-?[^"']*|[0-9a-f]{32}|content="[^"]*"/gu, ''));
  });

  it('hands other answers to hapi to write, with the body already read', async () => {
    const here = await post(`${server.url}/refuse`, 'a=1');
    const viaHapi = await post(`${server.url}/refuse`, 'a=1', VIA_HAPI);
    expect(here.status).toBe(422);
    expect(names(here)).toEqual(names(viaHapi));
    expect(here.body).toContain('These credentials do not match our records.');
  });

  it('still checks the CSRF token', async () => {
    expect((await post(`${server.url}/guarded`, 'a=1')).status).toBe(419);
    expect((await server.client().post('/guarded', { form: { a: '1' } })).status).toBe(200);
  });

  it('leaves larger forms, other types and compressed bodies to hapi', async () => {
    const large = await post(`${server.url}/echo`, `big=${'x'.repeat(70 * 1024)}`);
    expect(large.status).toBe(200);
    expect((JSON.parse(large.body) as { body: { big: string } }).body.big).toHaveLength(70 * 1024);
    const latin1 = await post(`${server.url}/echo`, 'a=1', { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' });
    expect(JSON.parse(latin1.body)).toEqual({ body: { a: '1' } });
    const gzipped = await post(`${server.url}/echo`, 'not gzip', { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(400);
  });

  it("logs hapi's 499 for a form whose client went away before sending its body, and keeps running", async () => {
    const { hostname, port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\n\r\na=1');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = app.logs.filter((line) => line.message === 'request' && line.fields['path'] === '/echo' && line.fields['status'] === 499);
    expect(lines).toHaveLength(1);
    expect((await post(`${server.url}/echo`, 'a=1')).status).toBe(200);
  });
});
