import { describe, expect, it } from 'vitest';
import nunjucks from 'nunjucks';
import { APP, rendererFor } from './app-views.js';

/** Renders with the framework's templates only, debug on, so any undefined value they print fails. */
const renderer = (globals: Record<string, unknown> = {}): ReturnType<typeof rendererFor> => rendererFor({}, { debug: true, globals });

describe('fw/layout.html', () => {
  it('frames a page in the app language and name, and renders without any optional globals', async () => {
    const html = await rendererFor({ 'page.html': '{% extends "fw/layout.html" %}{% block content %}<p>Body</p>{% endblock %}' }, { debug: true })
      .render('page.html', { app: { name: 'Acme Shop', locale: 'de' } });
    expect(html).toMatch(/^<!doctype html>\n<html lang="de">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Acme Shop</title>');
    expect(html).toContain('<body class="fw-page">');
    expect(html).toContain('<main id="main" class="fw-main" tabindex="-1"><p>Body</p></main>');
    // Without asset() (a bare render) the stylesheet's plain URL.
    expect(html).toContain('<link rel="stylesheet" href="/fw/fw.css">');
  });

  it('calls fw_head(), toasts() and asset() when the app provides them, and has no inline styles', async () => {
    const safe = (html: string) => () => new nunjucks.runtime.SafeString(html);
    const html = await renderer({
      fw_head: safe('<script src="/fw.js"></script>'),
      toasts: safe('<div class="toasts"></div>'),
      asset: (path: string) => `/${path}?v=0123456789ab`,
      csp_nonce: () => 'n0nce',
    }).render('fw/home.html', APP);
    expect(html).toContain('<script src="/fw.js"></script>');
    expect(html).toContain('<div class="toasts"></div>');
    expect(html).toContain('<link rel="stylesheet" href="/fw/fw.css?v=0123456789ab">');
    expect(html).not.toContain('<style');
    expect(html).not.toContain(' style=');
  });

  it('links the account pages in its header by the visitor: log in and register for guests, account and log out once signed in', async () => {
    const routes = new Set(['home', 'login', 'register', 'logout', 'account']);
    const globals = {
      route_exists: (name: string) => routes.has(name),
      route: (name: string) => (name === 'home' ? '/' : `/${name}`),
      route_is: (name: string) => name === 'login',
      csrf_field: () => new nunjucks.runtime.SafeString('<input type="hidden" name="_token" value="t0ken">'),
    };
    const guest = await renderer(globals).render('fw/home.html', { ...APP, auth: { check: false, user: null } });
    expect(guest).toContain('<a class="fw-brand" href="/">Acme Shop</a>');
    expect(guest).toContain('<a href="/login" aria-current="page">Log in</a>');
    expect(guest).toContain('href="/register"');
    expect(guest).not.toContain('Log out');

    const user = await renderer(globals).render('fw/home.html', { ...APP, auth: { check: true, user: { name: 'Ada' } } });
    expect(user).toContain('<a href="/account">Account</a>');
    expect(user).toMatch(/<form method="post" action="\/logout">\s*<input type="hidden" name="_token" value="t0ken">\s*<button class="fw-button fw-button-quiet" type="submit">Log out<\/button>/u);
    expect(user).not.toContain('href="/login"');
  });

  it('shows only the name in its header without the view globals (pages made from hapi errors)', async () => {
    const html = await renderer().render('fw/home.html', APP);
    expect(html).toContain('<a class="fw-brand" href="/">Acme Shop</a>');
    expect(html).not.toContain('<nav');
  });

  it('renders even with no app globals at all', async () => {
    const html = await renderer().render('fw/home.html', {});
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>fw</title>');
  });
});

describe('fw/home.html', () => {
  it('welcomes with the app name', async () => {
    const html = await renderer().render('fw/home.html', APP);
    expect(html).toContain('It works!');
    expect(html).toContain('Acme Shop is up and running.');
  });

  it('speaks the request’s language', async () => {
    const html = await renderer().render('fw/home.html', { app: { name: 'Acme Shop', locale: 'de' } });
    expect(html).toContain('<h1>Es läuft!</h1>');
    expect(html).toContain('Acme Shop ist gestartet und läuft.');
    expect(html).not.toContain('It works');
  });
});

describe('fw/error.html', () => {
  it('shows the status, reason, detail and request id', async () => {
    const html = await renderer().render('fw/error.html', {
      ...APP,
      status: 404,
      reason: 'Not Found',
      detail: 'No order <A-1> here.',
      request_id: 'req-7f3a',
    });
    expect(html).toContain('<title>404 Not Found</title>');
    expect(html).toContain('<p class="fw-status">404</p>');
    expect(html).toContain('<h1>Not Found</h1>');
    expect(html).toContain('<p>No order &lt;A-1&gt; here.</p>');
    expect(html).toContain('<code>req-7f3a</code>');
  });

  it('shows no stack trace or internals, even when the context carries them', async () => {
    const error = new Error('database password is hunter2');
    const html = await renderer().render('fw/error.html', {
      ...APP,
      status: 500,
      reason: 'Internal Server Error',
      stack: error.stack,
      trace: error.stack,
      message: error.message,
      error,
    });
    expect(html).toContain('Internal Server Error');
    expect(html).not.toContain('hunter2');
    expect(html).not.toMatch(/\bat .+:\d+:\d+/); // no "at file:line:column" stack line
  });

  it('renders with only a status', async () => {
    const html = await renderer().render('fw/error.html', { status: 503 });
    expect(html).toContain('<p class="fw-status">503</p>');
    expect(html).toContain('<h1>Something went wrong</h1>');
    expect(html).not.toContain('Request id');
  });
});

describe('fw/debug-error.html', () => {
  const error = new Error('Cannot read <b>user</b> & "friends"');

  it('shows the request, the message, the template and line, and the stack, all escaped', async () => {
    const html = await renderer().render('fw/debug-error.html', {
      status: 500,
      method: 'GET',
      path: '/orders?q=<x>',
      error_name: 'TypeError',
      message: error.message,
      template: 'orders/show.html',
      line: 12,
      trace: error.stack,
      request_id: 'req-1',
    });
    expect(html).toContain('500 · GET /orders?q=&lt;x&gt;');
    expect(html).toContain('<h1>TypeError: Cannot read &lt;b&gt;user&lt;/b&gt; &amp; &quot;friends&quot;</h1>');
    expect(html).not.toContain('<b>user</b>');
    expect(html).toContain('<dd>orders/show.html, line 12</dd>');
    expect(html).toContain('<pre>Error: Cannot read &lt;b&gt;user&lt;/b&gt;');
    expect(html).toMatch(/at .+built-in-templates\.test\.ts:\d+:\d+/);
    expect(html).toContain('<dd>req-1</dd>');
  });

  it('renders with only a message, and does not depend on the app layout', async () => {
    const broken = rendererFor({ 'fw/layout.html': '{{ broken( }}' }, { debug: true });
    const html = await broken.render('fw/debug-error.html', { message: 'boom' });
    expect(html).toContain('<h1>boom</h1>');
    expect(html).not.toContain('Template');
  });

  it('speaks the request’s language around the error’s own words', async () => {
    const html = await renderer().render('fw/debug-error.html', {
      app: { locale: 'de' },
      status: 500,
      error_name: 'TypeError',
      message: 'boom',
      template: 'orders/show.html',
      line: 12,
      trace: 'TypeError: boom',
      request_id: 'req-1',
    });
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<dt>Vorlage</dt><dd>orders/show.html, Zeile 12</dd>');
    expect(html).toContain('<dt>Anfrage-ID</dt>');
    expect(html).toContain('<h2>Stacktrace</h2>');
    expect(html).not.toContain('Stack trace');
  });
});
