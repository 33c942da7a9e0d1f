import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, HxHeader, Redirect, Routes, SetCookie, Toast, View, abort, abortIf, abortUnless, combine, html, json, status, stopWith, text } from '../../../composition/index.js';
import type { App, AppOptions } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { flipOneCharacter, setCookie } from './cookie-lines.js';

const AWKWARD_NAME = 'sub/dir\\re"port"; evil=1\r\nX-Injected: yes ünïcødé €.txt';

/** One route per kind of reply. */
function repliesApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/json', () => json({ a: 1, list: [1, 2] }))
    .get('/json-created', () => json({ made: true }, 201))
    .get('/text', () => text('plain words'))
    .get('/html', () => html('<p>markup</p>'))
    .get('/string', () => '<p>a string is html</p>')
    .get('/status', () => status(202))
    .get('/null', () => null)
    .get('/object', () => ({ plain: 'object', n: 2 }))
    .get('/array', () => [1, 'two'])
    .get('/download', () => Download.bytes(new TextEncoder().encode('bytes!'), AWKWARD_NAME))
    .get('/inline/pdf', () => Download.bytes('%PDF-1.7', 'paper.pdf', 'application/pdf').inline())
    .get('/inline/html', () => Download.bytes('<script>alert(1)</script>', 'page.html', 'text/html').inline())
    .get('/inline/svg', () => Download.bytes('<svg/>', 'pic.svg', 'image/svg+xml').inline())
    .get('/inline/js', () => Download.bytes('alert(1)', 'code.js', 'text/javascript; charset=utf-8').inline())
    .get('/inline/other', (ctx) => Download.bytes('<x/>', 'file.bin', String(ctx.query['type'])).inline())
    .get('/redirect', () => Redirect.to('/next'))
    .get('/redirect/unicode', () => Redirect.to('/café/€?q=ü 😀'))
    .get('/redirect/crlf', () => Redirect.to('/a\r\nX-Injected: yes'))
    .get('/items/{id}', (ctx) => json({ id: ctx.params.int('id') }))
    .name('items.show')
    .get('/to-route', () => Redirect.route('items.show', [7], { tab: 'a b', page: 2 }))
    .get('/back', () => Redirect.back())
    .get('/intend', (ctx) => {
      const url = ctx.query['url'];
      ctx.session.setIntendedUrl(typeof url === 'string' ? url : '/wanted');
      return text('remembered');
    })
    .get('/intended', () => Redirect.intended('/home'))
    .get('/saved', () => combine(Redirect.to('/next'), Toast.success('Saved')))
    .get('/toast-now', () => combine(View.make('fw/home.html'), Toast.info('Right here')))
    .get('/next', () => View.make('fw/home.html'))
    .get('/hx/unicode', () => combine(text('x'), HxHeader.trigger({ showMessage: 'Gespeichert ✓ 😀' }), HxHeader.redirect('/café')))
    .get('/hx', () => combine(json({ ok: true }), HxHeader.trigger('saved'), HxHeader.redirect('/x')))
    .get('/cookie/strict', () => combine(text('set'), SetCookie.make('theme', 'dark').maxAge(60).strict()))
    .get('/cookie/scripts', () => combine(text('set'), SetCookie.make('theme', 'light').readableByScripts()))
    .get('/cookie/path', () => combine(text('set'), SetCookie.make('scoped', 'yes').path('/admin')))
    .get('/cookie/encrypted', () => combine(text('set'), SetCookie.encrypted('prefs', { a: 1 })))
    .get('/cookie/redirect', () => combine(Redirect.to('/next'), SetCookie.make('theme', 'dark')))
    .get('/cookie/read', async (ctx) => json({ prefs: (await ctx.cookies.getEncrypted('prefs')) ?? null, theme: ctx.cookies.get('theme') ?? null }))
    .get('/cookie/bad', () => combine(text('never'), SetCookie.make('theme', 'dark; Domain=evil.test')))
    .get('/cookie/remove', () => combine(text('removed'), SetCookie.remove('theme')))
    .get('/abort', () => abort(403, 'You may not see this.'))
    .get('/stop-with', (ctx) => {
      // A helper deep in a handler stops the request with a reply; what follows never runs.
      const requireChoice = (): void => {
        if (ctx.query['choice'] === undefined) stopWith(combine(Redirect.to('/next'), Toast.info('Pick one first')));
      };
      requireChoice();
      return text('chosen');
    })
    .get('/abort-if', (ctx) => {
      abortIf(ctx.query['stop'] === 'yes', 409, 'Stopped on request.');
      return text('went on');
    })
    .get('/abort-unless', (ctx) => {
      abortUnless(ctx.query['ok'] === 'yes', 422, 'Say ok first.');
      return text('ok given');
    });
  return createDefaultApp(options).module({ name: 'replies-test', routes });
}

const dir = useTempDir('fw-replies-');

describe('handler replies over a real socket', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` }, build: repliesApp });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  describe('plain answers', () => {
    it('sends JSON', async () => {
      const response = await server.client().get('/json');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({ a: 1, list: [1, 2] });
      expect((await server.client().get('/json-created')).status).toBe(201);
    });

    it('sends text and HTML', async () => {
      const plain = await server.client().get('/text');
      expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(plain.text).toBe('plain words');
      const markup = await server.client().get('/html');
      expect(markup.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(markup.text).toBe('<p>markup</p>');
      const string = await server.client().get('/string');
      expect(string.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(string.text).toBe('<p>a string is html</p>');
    });

    it('sends a bare status, 204 for null, and JSON for plain objects and arrays', async () => {
      const accepted = await server.client().get('/status');
      expect(accepted.status).toBe(202);
      expect(accepted.text).toBe('');
      const empty = await server.client().get('/null');
      expect(empty.status).toBe(204);
      expect(empty.text).toBe('');
      const object = await server.client().get('/object');
      expect(object.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(object.json()).toEqual({ plain: 'object', n: 2 });
      expect((await server.client().get('/array')).json()).toEqual([1, 'two']);
    });
  });

  describe('downloads', () => {
    it('makes an awkward file name safe for Content-Disposition', async () => {
      const response = await server.client().get('/download');
      expect(response.status).toBe(200);
      expect(response.text).toBe('bytes!');
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('x-injected')).toBeNull();
      const disposition = response.headers.get('content-disposition') ?? '';
      expect(disposition.startsWith('attachment; ')).toBe(true);
      // One header line of printable ASCII: no CR, LF or raw unicode.
      expect(disposition).toMatch(/^[\x20-\x7e]+$/u);
      const ascii = /filename="([^"]*)"/u.exec(disposition)?.[1];
      expect(ascii).toBeDefined();
      expect(ascii).not.toMatch(/[/\\";]/u);
      const encoded = /filename\*=UTF-8''([^;\s]+)/u.exec(disposition)?.[1];
      expect(encoded).toBeDefined();
      const decoded = decodeURIComponent(encoded ?? '');
      // The last path segment only, unicode kept, never a separator.
      expect(decoded).not.toMatch(/[/\\]/u);
      expect(decoded).toContain('ünïcødé €.txt');
      // Only one parameter besides the two file names: the '; evil=1' stays inside them.
      expect(disposition.split(';').filter((part) => part.includes('=')).length).toBe(2);
    });

    it('shows a PDF inline but keeps HTML, SVG and JavaScript downloads', async () => {
      const pdf = await server.client().get('/inline/pdf');
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toMatch(/^inline; filename="paper\.pdf"/u);
      for (const path of ['/inline/html', '/inline/svg', '/inline/js']) {
        const response = await server.client().get(path);
        expect(response.headers.get('content-disposition'), path).toMatch(/^attachment; /u);
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    });
  });

  describe('inline downloads of other page-like types', () => {
    it.each(['application/rss+xml', 'application/atom+xml', 'application/mathml+xml', 'text/xsl', 'application/x-javascript', 'text/x-javascript', ' text/html', 'TEXT/HTML; charset=utf-8', 'application/xhtml+xml'])(
      'keeps %s a download',
      async (type) => {
        const response = await server.client().get(`/inline/other?type=${encodeURIComponent(type)}`);
        expect(response.headers.get('content-disposition')).toMatch(/^attachment; /u);
      },
    );

    it.each(['application/pdf', 'image/png', 'text/plain; charset=utf-8', 'video/mp4'])('shows %s inline', async (type) => {
      const response = await server.client().get(`/inline/other?type=${encodeURIComponent(type)}`);
      expect(response.headers.get('content-disposition')).toMatch(/^inline; /u);
    });
  });

  describe('redirects', () => {
    it('answers Redirect.to with 303', async () => {
      const response = await server.client().get('/redirect');
      expect(response.status).toBe(303);
      expect(response.location).toBe('/next');
    });

    it('percent-encodes a location with unicode, and never lets CR/LF split the header', async () => {
      const unicode = await server.client().get('/redirect/unicode');
      expect(unicode.status).toBe(303);
      expect(unicode.location).toBe('/caf%C3%A9/%E2%82%AC?q=%C3%BC%20%F0%9F%98%80');
      expect(decodeURI(unicode.location ?? '')).toBe('/café/€?q=ü 😀');

      const crlf = await server.client().get('/redirect/crlf');
      expect(crlf.status).toBe(303);
      expect(crlf.headers.get('x-injected')).toBeNull();
      expect(crlf.location).toBe('/a%0D%0AX-Injected:%20yes');
    });

    it('fills a named route with its arguments and query', async () => {
      const response = await server.client().get('/to-route');
      expect(response.status).toBe(303);
      const location = new URL(response.location ?? '', 'http://x.test');
      expect(location.pathname).toBe('/items/7');
      expect(Object.fromEntries(location.searchParams)).toEqual({ tab: 'a b', page: '2' });
    });

    it('goes back to a same-site Referer, and to / otherwise', async () => {
      const same = await server.client().get('/back', { headers: { referer: `${server.url}/from/here?x=1` } });
      expect(same.status).toBe(303);
      expect(same.location).toBe('/from/here?x=1');
      for (const referer of ['https://evil.test/from', '//evil.test/from', `${server.url.replace('http:', 'ftp:')}/from`, 'javascript:alert(1)']) {
        const other = await server.client().get('/back', { headers: { referer } });
        expect(other.location, referer).toBe('/');
      }
      const none = await server.client().get('/back');
      expect(none.status).toBe(303);
      expect(none.location).toBe('/');
    });

    it('goes to the intended page once, then to the fallback', async () => {
      const client = server.client();
      expect((await client.get('/intended')).location).toBe('/home');
      await client.get('/intend?url=/wanted');
      const first = await client.get('/intended');
      expect(first.status).toBe(303);
      expect(first.location).toBe('/wanted');
      expect((await client.get('/intended')).location).toBe('/home');
    });

    it('goes to an intended URL with unicode, percent-encoded', async () => {
      const client = server.client();
      await client.get(`/intend?url=${encodeURIComponent('/résumé/€')}`);
      const response = await client.get('/intended');
      expect(response.status).toBe(303);
      expect(response.location).toBe('/r%C3%A9sum%C3%A9/%E2%82%AC');
    });

    it('never uses an intended URL on another site', async () => {
      for (const url of ['//evil.test', 'https://evil.test/', '/\\evil.test', 'javascript:alert(1)']) {
        const client = server.client();
        await client.get(`/intend?url=${encodeURIComponent(url)}`);
        expect((await client.get('/intended')).location, url).toBe('/home');
      }
    });
  });

  describe('toasts and partial-update headers', () => {
    it('shows a toast on the page after the redirect, once', async () => {
      const client = server.client();
      const saved = await client.get('/saved');
      expect(saved.status).toBe(303);
      expect(saved.location).toBe('/next');
      const page = await client.get('/next');
      expect(page.status).toBe(200);
      expect(page.text.split('Saved').length - 1).toBe(1);
      expect(page.text).toContain('fw-toast-success');
      const again = await client.get('/next');
      expect(again.text).not.toContain('Saved');
    });

    it('shows a toast with the page it comes with, and not on the next one', async () => {
      const client = server.client();
      expect((await client.get('/toast-now')).text.split('Right here').length - 1).toBe(1);
      expect((await client.get('/next')).text).not.toContain('Right here');
    });

    it('adds HX headers to a JSON answer', async () => {
      const response = await server.client().get('/hx');
      expect(response.json()).toEqual({ ok: true });
      expect(response.headers.get('hx-trigger')).toBe('saved');
      expect(response.headers.get('hx-redirect')).toBe('/x');
    });
  });

  describe('partial-update headers with unicode', () => {
    it('sends HX-Trigger JSON escaped, still the same JSON, and HX-Redirect percent-encoded', async () => {
      const response = await server.client().get('/hx/unicode');
      expect(response.status).toBe(200);
      const trigger = response.headers.get('hx-trigger') ?? '';
      expect(trigger).toMatch(/^[\x20-\x7e]+$/u);
      expect(JSON.parse(trigger)).toEqual({ showMessage: 'Gespeichert ✓ 😀' });
      expect(response.headers.get('hx-redirect')).toBe('/caf%C3%A9');
    });
  });

  describe('cookies', () => {
    it('sets Max-Age and SameSite=Strict', async () => {
      const cookie = setCookie(await server.client().get('/cookie/strict'), 'theme');
      expect(cookie.value).toBe('dark');
      expect(cookie.attributes.get('max-age')).toBe('60');
      expect(cookie.attributes.get('samesite')).toBe('Strict');
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('path')).toBe('/');
      expect(cookie.attributes.has('secure')).toBe(false);
    });

    it('leaves out HttpOnly for a cookie readable by scripts, keeping the other defaults', async () => {
      const cookie = setCookie(await server.client().get('/cookie/scripts'), 'theme');
      expect(cookie.value).toBe('light');
      expect(cookie.attributes.has('httponly')).toBe(false);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
      expect(cookie.attributes.has('max-age')).toBe(false);
      expect(cookie.attributes.has('expires')).toBe(false);
    });

    it('sets a path', async () => {
      expect(setCookie(await server.client().get('/cookie/path'), 'scoped').attributes.get('path')).toBe('/admin');
    });

    it('sets a cookie along with a redirect', async () => {
      const response = await server.client().get('/cookie/redirect');
      expect(response.status).toBe(303);
      expect(setCookie(response, 'theme').value).toBe('dark');
    });

    it('reads an encrypted cookie back in the next request, and nothing when it was tampered with', async () => {
      const client = server.client();
      const set = setCookie(await client.get('/cookie/encrypted'), 'prefs');
      expect(set.value).not.toContain('"a"');
      expect((await client.get('/cookie/read')).json()).toEqual({ prefs: { a: 1 }, theme: null });

      const tampered = flipOneCharacter(client.cookies.get('prefs') ?? '');
      client.cookies.set('prefs', tampered);
      const response = await client.get('/cookie/read');
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ prefs: null, theme: null });
    });

    it('refuses a cookie value that would end the cookie, with the error page', async () => {
      expect(() => SetCookie.make('theme', 'a;b')).toThrow(TypeError);
      expect(() => SetCookie.make('theme', 'line\nbreak')).toThrow(TypeError);
      expect(() => SetCookie.make('theme', 'café')).toThrow(TypeError);
      expect(() => SetCookie.make('theme', 'dark').path('/a;Domain=evil.test')).toThrow(TypeError);
      expect(SetCookie.make('theme', 'a b="c"').value).toBe('a b="c"');

      const response = await server.client().get('/cookie/bad');
      expect(response.status).toBe(500);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.text).toContain(response.headers.get('x-request-id') ?? 'missing');
      expect(response.headers.getSetCookie().some((line) => line.startsWith('theme='))).toBe(false);
    });

    it('reads a cookie sent twice (the first, most specific one) and one behind a nameless cookie', async () => {
      const client = server.client();
      await client.get('/cookie/encrypted');
      const prefs = client.cookies.get('prefs') ?? '';
      for (const cookie of ['theme=dark; theme=light', 'abc; theme=dark', `theme=dark; prefs=${prefs}; prefs=junk`]) {
        const response = await server.client().get('/cookie/read', { headers: { cookie } });
        expect(response.json<{ theme: string | null }>().theme, cookie).toBe('dark');
      }
      const both = await server.client().get('/cookie/read', { headers: { cookie: `prefs=junk; prefs=${prefs}` } });
      expect(both.json()).toEqual({ prefs: { a: 1 }, theme: null });
    });

    it('expires a removed cookie', async () => {
      const client = server.client();
      await client.get('/cookie/strict');
      expect((await client.get('/cookie/read')).json()).toEqual({ prefs: null, theme: 'dark' });
      const removal = setCookie(await client.get('/cookie/remove'), 'theme');
      expect(removal.value).toBe('');
      const expired = removal.attributes.get('max-age') === '0' || /1970/u.test(removal.attributes.get('expires') ?? '');
      expect(expired).toBe(true);
      expect(removal.attributes.get('path')).toBe('/');
      expect((await client.get('/cookie/read')).json()).toEqual({ prefs: null, theme: null });
    });
  });

  describe('abort', () => {
    it('answers abort with its status and message, as a page and as JSON', async () => {
      const page = await server.client().get('/abort');
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('You may not see this.');
      const api = await server.client().get('/abort', { headers: { accept: 'application/json' } });
      expect(api.status).toBe(403);
      expect(api.json()).toEqual({ message: 'You may not see this.' });
    });

    it('stops with a reply thrown from a helper (stopWith), toast and all, as if the handler had returned it', async () => {
      const client = server.client();
      const stopped = await client.get('/stop-with');
      expect(stopped.status).toBe(303);
      expect(stopped.location).toBe('/next');
      expect((await client.get('/next')).text).toContain('Pick one first');
      expect((await client.get('/stop-with?choice=a')).text).toBe('chosen');
    });

    it('answers abortIf and abortUnless only when their condition says so', async () => {
      const stopped = await server.client().get('/abort-if?stop=yes', { headers: { accept: 'application/json' } });
      expect(stopped.status).toBe(409);
      expect(stopped.json()).toEqual({ message: 'Stopped on request.' });
      expect((await server.client().get('/abort-if?stop=no')).text).toBe('went on');

      const refused = await server.client().get('/abort-unless', { headers: { accept: 'application/json' } });
      expect(refused.status).toBe(422);
      expect(refused.json()).toEqual({ message: 'Say ok first.' });
      expect((await server.client().get('/abort-unless?ok=yes')).text).toBe('ok given');
    });
  });
});
