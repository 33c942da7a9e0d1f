import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dimensions, Routes, TOKENS, Upload, formSchema, json, object, text, textField, uploadField, uploadIn } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { gifBytes, multipartBody, pngHeader } from '../../support/images.js';

const dir = useTempDir('fw-uploads-http-');

/** The file rules of spec 002 judging Upload values: the validation engine over the upload's facts. */
const PROFILE = formSchema({
  struct: object({ name: textField(), photo: uploadField() }),
  rules(v) {
    v.field('name').required();
    v.field('photo').required().image().mimes('gif', 'png').dimensions(new Dimensions().minWidth(100).ratio(2)).max(4);
  },
});
const LIMIT = 1024 * 1024;

/** What the upload route answers about each file it got. */
interface Seen {
  field: string;
  originalName: string;
  size: number;
  clientType: string;
  sniffedType: string | null;
  dimensions: { width: number; height: number } | null;
  tempInside: boolean;
  key: string;
}

/** A POST over a socket with no Content-Length: the body goes chunked, so only counting can stop it. */
function chunkedPost(url: string, path: string, contentType: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
    request.end();
  });
}

describe('uploads over a real socket: Upload values, sniffed types, limits, and no temporary file left behind', () => {
  let server: TestServer;
  let tempDir = '';
  let publicRoot = '';
  const seenPaths: string[] = [];

  /** Waits for the temporary folder to empty (files go when the response is over). */
  async function tempFolderEmpties(): Promise<string[]> {
    for (let tries = 0; tries < 50; tries += 1) {
      const left = existsSync(tempDir) ? readdirSync(tempDir) : [];
      if (left.length === 0) return left;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return readdirSync(tempDir);
  }

  beforeAll(async () => {
    const root = dir();
    tempDir = join(root, 'tmp-uploads');
    publicRoot = join(root, 'public-disk');
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, UPLOAD_MAX_SIZE: '1MB', UPLOAD_TMP_DIR: tempDir, STORAGE_PUBLIC_ROOT: publicRoot },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'uploads-test',
          routes: new Routes()
            .post('/files', async (ctx) => {
              const body = ctx.body() as Record<string, unknown>;
              const files = Object.values(body)
                .flat()
                .filter((value): value is Upload => value instanceof Upload);
              const disk = ctx.service(TOKENS.storage).disk('public');
              const seen: Seen[] = [];
              for (const file of files) {
                seenPaths.push(file.path);
                seen.push({
                  field: file.field,
                  originalName: file.originalName,
                  size: file.size,
                  clientType: file.clientType,
                  sniffedType: file.sniffedType,
                  dimensions: file.dimensions,
                  tempInside: file.path.startsWith(`${tempDir}/`) && existsSync(file.path),
                  key: await file.store(disk, file.hashName('uploads')),
                });
              }
              const text = Object.fromEntries(Object.entries(body).filter(([, value]) => typeof value === 'string'));
              return json({ seen, text });
            })
            .post('/profile', async (ctx) => {
              const values = await ctx.valid(PROFILE);
              return json({ name: values.name, photo: values.photo?.originalName ?? null });
            })
            .withoutCsrf()
            .get('/token', (ctx) => text(ctx.session.token()))
            .post('/guarded', (ctx) => json({ title: (ctx.body() as Record<string, unknown>)['title'], photo: uploadIn(ctx.body(), 'photo')?.originalName ?? null })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  async function post(form: { body: Buffer; contentType: string }) {
    return server.client().post('/files', { body: form.body, headers: { 'content-type': form.contentType } });
  }

  it('a file becomes an Upload: original name, size, the type sniffed from its bytes, an image\'s size from its header; stored, then its temporary file is gone', async () => {
    const gif = gifBytes(640, 480);
    const response = await post(multipartBody({ title: 'Holiday' }, [{ name: 'photo', filename: 'beach.gif', contentType: 'image/gif', bytes: gif }]));
    expect(response.status).toBe(200);
    const { seen, text } = response.json<{ seen: Seen[]; text: Record<string, string> }>();
    expect(text).toEqual({ title: 'Holiday' });
    expect(seen).toEqual([
      {
        field: 'photo',
        originalName: 'beach.gif',
        size: gif.length,
        clientType: 'image/gif',
        sniffedType: 'image/gif',
        dimensions: { width: 640, height: 480 },
        tempInside: true,
        key: expect.stringMatching(/^uploads\/[0-9a-f-]{36}\.gif$/u) as string,
      },
    ]);
    const stored = await server.client().get(`/storage/${seen[0]?.key ?? ''}`);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-length')).toBe(String(gif.length));
    expect(await tempFolderEmpties()).toEqual([]);
    expect(seenPaths.every((path) => !existsSync(path))).toBe(true);
  });

  it('a lying Content-Type changes nothing: the type comes from the bytes', async () => {
    const script = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const response = await post(
      multipartBody({}, [
        { name: 'a', filename: 'cat.png', contentType: 'image/png', bytes: script },
        { name: 'b', filename: 'notes.txt', contentType: 'text/plain', bytes: Buffer.concat([pngHeader(32, 16), Buffer.alloc(64)]) },
      ]),
    );
    const { seen } = response.json<{ seen: Seen[] }>();
    expect(seen.map((file) => [file.clientType, file.sniffedType, file.dimensions])).toEqual([
      ['image/png', null, null],
      ['text/plain', 'image/png', { width: 32, height: 16 }],
    ]);
    // Stored under a name of the sniffed type, never the client's: the script is a .bin.
    expect(seen.map((file) => file.key.split('.').pop())).toEqual(['bin', 'png']);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['/absolute/path.txt', 'path.txt'],
    ['\u202Egnp.exe', 'gnp.exe'],
    ['tab\there.txt', 'tabhere.txt'],
    ['<img src=x onerror=alert(1)>.png', '<img src=x onerror=alert(1)>.png'],
    [`${'x'.repeat(400)}.txt`, 'x'.repeat(255)],
  ])('a hostile filename (%#: %s) is only a name to show (shown as %s); the file waits under a random name in the temporary folder', async (filename, shown) => {
    const response = await post(multipartBody({}, [{ name: 'doc', filename, bytes: Buffer.from('plain text') }]));
    expect(response.status).toBe(200);
    const [file] = response.json<{ seen: Seen[] }>().seen;
    expect(file?.originalName).toBe(shown);
    expect(file?.tempInside).toBe(true);
    expect(await tempFolderEmpties()).toEqual([]);
    // Nothing was written beside the temporary folder or the disk.
    expect(readdirSync(join(tempDir, '..')).filter((name) => !name.startsWith('db.sqlite')).sort()).toEqual(['public-disk', 'tmp-uploads']);
  });

  it('an empty file input (no file chosen) gives no Upload', async () => {
    const response = await post(multipartBody({ title: 't' }, [{ name: 'photo', filename: '', bytes: Buffer.alloc(0) }]));
    expect(response.json<{ seen: Seen[] }>().seen).toEqual([]);
  });

  it('over UPLOAD_MAX_SIZE, with a Content-Length or sent chunked: 400 with the sentence, nothing left', async () => {
    const big = multipartBody({}, [{ name: 'f', filename: 'big.bin', bytes: Buffer.alloc(LIMIT + 1, 0x61) }]);
    const declared = await post(big);
    expect([declared.status, declared.text]).toEqual([400, 'The form is too large.']);
    const chunked = await chunkedPost(server.url, '/files', big.contentType, big.body);
    expect([chunked.status, chunked.text]).toEqual([400, 'The form is too large.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('10 000 parts: 413 with the sentence, nothing left', async () => {
    const fields = Object.fromEntries(Array.from({ length: 9_990 }, (_, index) => [`f${index}`, 'x']));
    const files = Array.from({ length: 10 }, (_, index) => ({ name: `file${index}`, filename: `${index}.txt`, bytes: Buffer.from('abc') }));
    const response = await post(multipartBody(fields, files));
    expect([response.status, response.text]).toEqual([413, 'The form has too many fields or files.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('the sentence follows Accept-Language (no session is open yet): German for a German browser', async () => {
    const big = multipartBody({}, [{ name: 'f', filename: 'big.bin', bytes: Buffer.alloc(LIMIT + 1, 0x61) }]);
    const response = await server.client().post('/files', { body: big.body, headers: { 'content-type': big.contentType, 'accept-language': 'de-CH, de;q=0.9' } });
    // Over the limit with a Content-Length is refused before the body is read (the body-limit stage, English).
    expect(response.status).toBe(400);
    const chunked = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/files`, { method: 'POST', headers: { 'content-type': big.contentType, 'accept-language': 'de-CH, de;q=0.9' } }, (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
      });
      request.on('error', reject);
      // Written before the end: sent chunked, so the parser is the one to stop it.
      request.write(big.body);
      request.end();
    });
    expect([chunked.status, chunked.text]).toEqual([400, 'Das Formular ist zu groß.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('more files than allowed (100): 413, and the files already written are removed', async () => {
    const files = Array.from({ length: 101 }, (_, index) => ({ name: 'many', filename: `${index}.txt`, bytes: Buffer.alloc(2000, 0x62) }));
    const response = await post(multipartBody({}, files));
    expect([response.status, response.text]).toEqual([413, 'The form has too many fields or files.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('a body that ends before its closing boundary: 400 with the sentence, nothing left', async () => {
    const whole = multipartBody({ a: '1' }, [{ name: 'f', filename: 'f.gif', bytes: gifBytes(2, 2, Buffer.alloc(50_000, 1)) }]);
    const cut = whole.body.subarray(0, whole.body.length - 30_000);
    const declared = await chunkedPost(server.url, '/files', whole.contentType, cut);
    expect([declared.status, declared.text]).toEqual([400, 'The form could not be read. Send it again.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('a client that goes away half way through its upload leaves no temporary file', async () => {
    const whole = multipartBody({}, [{ name: 'f', filename: 'f.bin', bytes: Buffer.alloc(200_000, 1) }]);
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${whole.contentType}\r\nContent-Length: ${whole.body.length}\r\n\r\n`);
        socket.write(whole.body.subarray(0, 100_000));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('a file-upload form carries the CSRF token in its _token field (spec 001, CSRF 2); without it: 419 and no file left', async () => {
    const client = server.client();
    const token = (await client.get('/token')).text;
    const photo = [{ name: 'photo', filename: 'p.gif', bytes: gifBytes(1, 1) }];
    const withToken = multipartBody({ _token: token, title: 'Hello' }, photo);
    const accepted = await client.post('/guarded', { body: withToken.body, headers: { 'content-type': withToken.contentType }, csrf: false });
    expect([accepted.status, accepted.json()]).toEqual([200, { title: 'Hello', photo: 'p.gif' }]);
    const without = multipartBody({ title: 'Hello' }, photo);
    expect((await client.post('/guarded', { body: without.body, headers: { 'content-type': without.contentType }, csrf: false })).status).toBe(419);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('the file rules judge an Upload by its bytes: image, mimes, dimensions from the header, max in KiB (422 with the messages)', async () => {
    const client = server.client();
    const send = (files: Parameters<typeof multipartBody>[1]) => {
      const form = multipartBody({ name: 'Ada' }, files);
      return client.post('/profile', { body: form.body, headers: { 'content-type': form.contentType, accept: 'application/json' }, csrf: false });
    };
    const good = await send([{ name: 'photo', filename: 'me.gif', bytes: gifBytes(200, 100) }]);
    expect([good.status, good.json()]).toEqual([200, { name: 'Ada', photo: 'me.gif' }]);
    const errors = async (files: Parameters<typeof multipartBody>[1]) => (await send(files)).json<{ errors: Record<string, string[]> }>().errors['photo'];
    expect(await errors([])).toEqual(['The photo field is required.']);
    expect(await errors([{ name: 'photo', filename: 'me.png', contentType: 'image/png', bytes: Buffer.from('<svg onload=alert(1)>') }])).toEqual([
      'The photo field must be an image.',
      'The photo field must be a file of type: gif, png.',
      'The photo field has invalid image dimensions.',
    ]);
    expect(await errors([{ name: 'photo', filename: 'small.gif', bytes: gifBytes(50, 25) }])).toEqual(['The photo field has invalid image dimensions.']);
    expect(await errors([{ name: 'photo', filename: 'big.gif', bytes: gifBytes(400, 200, Buffer.alloc(5000)) }])).toEqual(['The photo field must not be greater than 4 kilobytes.']);
    expect(await tempFolderEmpties()).toEqual([]);
  });

  it('a field named __proto__ is refused (it would become the body\'s prototype)', async () => {
    const response = await post(multipartBody({ __proto__x: 'fine' }, []));
    expect(response.status).toBe(200);
    const refused = await post(multipartBody({}, [{ name: '__proto__', filename: 'p.txt', bytes: Buffer.from('x') }]));
    expect([refused.status, refused.text]).toEqual([400, 'The form could not be read. Send it again.']);
  });

  it('property: random multipart-ish bodies get 200 or a 4xx with a sentence, never a 500, and leave nothing behind', async () => {
    const boundary = 'fw-fuzz';
    const piece = fc.oneof(
      fc.constant(`--${boundary}\r\n`),
      fc.constant(`--${boundary}--\r\n`),
      fc.constant('Content-Disposition: form-data; name="f"; filename="x.bin"\r\n'),
      fc.constant('Content-Disposition: form-data; name="t"\r\n'),
      fc.constant('Content-Type: image/png\r\n'),
      fc.constant('\r\n'),
      fc.string({ maxLength: 40 }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 20 }), async (pieces) => {
        const response = await server.client().post('/files', { body: Buffer.from(pieces.join(''), 'latin1'), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
        expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true);
        expect(response.text).not.toMatch(/at .*\.ts:\d+/u);
      }),
      { numRuns: 60 },
    );
    expect(await tempFolderEmpties()).toEqual([]);
  });
});
