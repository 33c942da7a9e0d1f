/**
 * The view globals of spec 002 'Template globals and filters' that depend on the request,
 * through a real app and socket: request.query/route/htmx/boosted, app.currency, auth.roles,
 * t, can(), errors_in(), page_url(), query_with(), query_fields(), seo().
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultApp } from '../../../composition/default-app.js';
import { Redirect, Routes, View } from '../../../composition/index.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { testLogin } from '../../support/flows.js';

const FILES: Record<string, string> = {
  'resources/views/request.html': [
    'query=[{{ request.query.sort | default("") }}|{{ request.query.tag | default([]) | join(",") }}]',
    'route=[{{ request.route }}]',
    'htmx=[{{ request.htmx }}]',
    'boosted=[{{ request.boosted }}]',
    'currency=[{{ app.currency }}|{{ 1999 | money }}]',
    't=[{{ t("auth.login.title") }}]',
    'page_url=[{{ page_url(3) }}]',
    'query_with=[{{ query_with(sort="price", tag=null) }}]',
    'query_with_dict=[{{ query_with({page: 2}) }}]',
    'query_fields=[{{ query_fields("page") }}]',
    'query_fields_all=[{{ query_fields() }}]',
    'roles=[{{ auth.roles | join(",") }}]',
  ].join('\n'),
  'resources/views/bags.html': [
    'default=[{% for field, messages in errors_in("default") %}{{ field }}:{{ messages[0] }};{% endfor %}]',
    'login=[{% for field, messages in errors_in("login") %}{{ field }}:{{ messages[0] }};{% endfor %}]',
    'one=[{{ error("email", "login") }}]',
  ].join('\n'),
  'resources/views/seo.html': "{{ seo(title, 'A shop for \"tea\" & <cups>', image, 'product', canonical) }}",
  'resources/views/seo-keywords.html': "{{ seo(title='Only a title') }}",
  'resources/views/components/edit-link.html': "{% macro edit_link(post) %}{% if can('edit-post', post) %}<a href=\"/posts/{{ post.id }}/edit\">Edit {{ post.title }}</a>{% endif %}{% endmacro %}",
  'resources/views/can.html': [
    '{% from "components/edit-link.html" import edit_link %}',
    'reports=[{{ can("see-reports") }}]',
    'unknown=[{{ can("no-such-gate") }}]',
    'posts=[{% for post in posts %}{{ post.title }}:{{ can("edit-post", post) }};{% endfor %}]',
    'by_id=[{{ can("edit-post-id", 7) }}|{{ can("edit-post-id", 8) }}]',
    'nested=[{% if can("see-reports") %}{% if can("export-reports") %}exports{% endif %}{% endif %}]',
    'literal=[{{ can("edit-post", { id: 99, author: "ada@example.com" }) }}]',
    'macro=[{% for post in posts %}{{ edit_link(post) }}{% endfor %}]',
    // Rendered once per round of can() answers: each round starts from the request's globals.
    '{% set rounds = (rounds or 0) + 1 %}rounds=[{{ rounds }}]',
  ].join('\n'),
  'resources/views/proto.html': 'polluted=[{{ polluted | default("no") }}]\ntoken=[{{ csrf_token | length > 0 }}]',
};

function field(page: string, label: string): string | undefined {
  return new RegExp(`^${label}=\\[(.*)\\]$`, 'mu').exec(page)?.[1];
}

const dir = useTempDir('fw-template-globals-');
/** Every question a gate was asked, to see that each is asked once per request. */
const asked: string[] = [];

describe('template globals over a real socket', () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    for (const [path, content] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir(), path)), { recursive: true });
      writeFileSync(join(dir(), path), content);
    }
    const posts = [
      { id: 1, title: 'Mine', author: 'ada@example.com' },
      { id: 2, title: 'Theirs', author: 'bob@example.com' },
    ];
    app = TestApp.create({
      environment: { APP_NAME: 'Tea & Cups', APP_URL: 'https://shop.example', APP_CURRENCY: 'EUR', APP_DEBUG: 'true' },
      root: dir(),
      build: (options) =>
        createDefaultApp(options)
          .module({
            name: 'globals-test',
            routes: new Routes()
              .get('/things', () => View.make('request.html'))
              .name('things.index')
              .get('/bags', () => View.make('bags.html'))
              .post('/bags', (ctx) => {
                ctx.session.flashErrors({ name: ['The name is required.'] });
                ctx.session.flashErrors({ email: ['These credentials do not match.'] }, 'login');
                return Redirect.to('/bags');
              })
              .get('/seo', (ctx) => View.make('seo.html', { title: ctx.query['title'] ?? '', image: ctx.query['image'] ?? '', canonical: ctx.query['canonical'] ?? '' }))
              .get('/seo-keywords', () => View.make('seo-keywords.html'))
              .get('/can', () => View.make('can.html', { posts }))
              // View data parsed from JSON may hold a `__proto__` key: it stays a plain value.
              .get('/proto', () => View.make('proto.html', JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>))
              .post('/test-login/{id}', testLogin),
          })
          .gate('see-reports', async (user) => {
            asked.push(`see-reports:${user.email}`);
            await Promise.resolve();
            return user.email === 'ada@example.com';
          })
          .gate('export-reports', (user) => {
            asked.push(`export-reports:${user.email}`);
            return user.email === 'ada@example.com';
          })
          .gate('edit-post', (user, post) => {
            asked.push(`edit-post:${(post as { id: number } | undefined)?.id ?? 'none'}`);
            return (post as { author: string } | undefined)?.author === user.email;
          })
          .gate('edit-post-id', (_user, id) => id === 7)
          .roles((user) => (user.email === 'ada@example.com' ? ['admin', 'editor'] : [])),
    });
    await app.call('migrate');
    server = await app.serve();
  });
  afterAll(async () => {
    await server.stop();
  });

  const ids = new Map<string, number>();
  async function signedIn(email: string) {
    const id = ids.get(email) ?? (await app.createUser({ email, name: email, password: 'correct horse battery' })).id;
    ids.set(email, id);
    const user = { id };
    const client = server.client();
    expect((await client.post(`/test-login/${user.id}`)).status).toBe(200);
    return client;
  }

  it('request.query, request.route, request.htmx, request.boosted', async () => {
    const plain = (await server.client().get('/things?sort=name&tag=a&tag=b')).text;
    expect(field(plain, 'query')).toBe('name|a,b');
    expect(field(plain, 'route')).toBe('things.index');
    expect(field(plain, 'htmx')).toBe('false');
    expect(field(plain, 'boosted')).toBe('false');
    const htmx = (await server.client().get('/things', { headers: { 'hx-request': 'true', 'hx-boosted': 'true' } })).text;
    expect(field(htmx, 'htmx')).toBe('true');
    expect(field(htmx, 'boosted')).toBe('true');
  });

  it('app.currency is APP_CURRENCY, and the money filter uses it', async () => {
    const page = (await server.client().get('/things')).text;
    expect(field(page, 'currency')).toBe('EUR|€19.99');
  });

  it('t() is a global every view has', async () => {
    expect(field((await server.client().get('/things')).text, 't')).toBe('Log in');
  });

  it('page_url(n) and query_with(key=value) keep the rest of the query', async () => {
    const page = (await server.client().get('/things?sort=name&tag=a&tag=b&page=1')).text;
    expect(field(page, 'page_url')).toBe('/things?sort=name&amp;tag=a&amp;tag=b&amp;page=3');
    // tag=null drops the parameter; a dictionary works like keywords.
    expect(field(page, 'query_with')).toBe('/things?sort=price&amp;page=1');
    expect(field(page, 'query_with_dict')).toBe('/things?sort=name&amp;tag=a&amp;tag=b&amp;page=2');
  });

  it('query_fields(...) writes hidden inputs for the query except the named parameters, escaped', async () => {
    const page = (await server.client().get('/things?sort=%22name%22%3E&tag=a&tag=b&page=4')).text;
    expect(field(page, 'query_fields')).toBe(
      '<input type="hidden" name="sort" value="&quot;name&quot;&gt;"><input type="hidden" name="tag" value="a"><input type="hidden" name="tag" value="b">',
    );
    expect(field(page, 'query_fields_all')).toContain('<input type="hidden" name="page" value="4">');
    expect(field((await server.client().get('/things')).text, 'query_fields')).toBe('');
  });

  it('errors_in(bag) gives one bag of errors; error(field, bag) one message of it', async () => {
    const client = server.client();
    await client.post('/bags');
    const page = (await client.get('/bags')).text;
    expect(field(page, 'default')).toBe('name:The name is required.;');
    expect(field(page, 'login')).toBe('email:These credentials do not match.;');
    expect(field(page, 'one')).toBe('These credentials do not match.');
  });

  it('seo() writes the title, description, Open Graph, Twitter and canonical tags, escaped, with absolute URLs from APP_URL', async () => {
    const page = (await server.client().get('/seo?title=%3Cb%3ETea%3C%2Fb%3E&image=%2Fimg%2Fcup.png&canonical=%2Fshop')).text;
    expect(page.split('\n')).toEqual([
      '<title>&lt;b&gt;Tea&lt;/b&gt;</title>',
      '<meta name="description" content="A shop for &quot;tea&quot; &amp; &lt;cups&gt;">',
      '<link rel="canonical" href="https://shop.example/shop">',
      '<meta property="og:title" content="&lt;b&gt;Tea&lt;/b&gt;">',
      '<meta property="og:description" content="A shop for &quot;tea&quot; &amp; &lt;cups&gt;">',
      '<meta property="og:type" content="product">',
      '<meta property="og:url" content="https://shop.example/shop">',
      '<meta property="og:image" content="https://shop.example/img/cup.png">',
      '<meta property="og:site_name" content="Tea &amp; Cups">',
      '<meta name="twitter:card" content="summary_large_image">',
      '<meta name="twitter:title" content="&lt;b&gt;Tea&lt;/b&gt;">',
      '<meta name="twitter:description" content="A shop for &quot;tea&quot; &amp; &lt;cups&gt;">',
      '<meta name="twitter:image" content="https://shop.example/img/cup.png">',
    ]);
  });

  it('seo() keeps absolute image URLs, refuses javascript: ones, and defaults the canonical URL to the page (without its query)', async () => {
    const other = (await server.client().get('/seo?title=T&image=https%3A%2F%2Fcdn.example%2Fa.png&x=1')).text;
    expect(other).toContain('<meta property="og:image" content="https://cdn.example/a.png">');
    expect(other).toContain('<link rel="canonical" href="https://shop.example/seo">');
    const evil = (await server.client().get('/seo?title=T&image=javascript%3Aalert(1)')).text;
    expect(evil).not.toContain('javascript');
    expect(evil).toContain('<meta name="twitter:card" content="summary">');
    const keywords = (await server.client().get('/seo-keywords')).text;
    expect(keywords).toContain('<title>Only a title</title>');
    expect(keywords).toContain('<meta property="og:type" content="website">');
    expect(keywords).not.toContain('description');
  });

  it('auth.roles lists the signed-in user\'s roles; a guest has none', async () => {
    expect(field((await server.client().get('/things')).text, 'roles')).toBe('');
    const ada = await signedIn('ada@example.com');
    expect(field((await ada.get('/things')).text, 'roles')).toBe('admin,editor');
    const bob = await signedIn('bob@example.com');
    expect(field((await bob.get('/things')).text, 'roles')).toBe('');
  });

  it('can(ability, subject) answers from the gates, per subject, also inside imported macros and nested checks', async () => {
    const ada = await signedIn('ada@example.com');
    asked.length = 0;
    const page = (await ada.get('/can')).text;
    expect(field(page, 'reports')).toBe('true');
    expect(field(page, 'unknown')).toBe('false');
    expect(field(page, 'posts')).toBe('Mine:true;Theirs:false;');
    expect(field(page, 'by_id')).toBe('true|false');
    // export-reports is only reached once see-reports said yes: a later round answers it.
    expect(field(page, 'nested')).toBe('exports');
    // A subject made up in the template is a new object each render: never answered, so closed.
    expect(field(page, 'literal')).toBe('false');
    expect(field(page, 'macro')).toBe('<a href="/posts/1/edit">Edit Mine</a>');
    // The last round's page saw none of the earlier rounds' {% set %}.
    expect(field(page, 'rounds')).toBe('1');
    // Each question reached the policy once in this request, however often the page asked it.
    expect(asked.filter((q) => q === 'see-reports:ada@example.com')).toHaveLength(1);
    expect(asked.filter((q) => q === 'edit-post:1')).toHaveLength(1);
    expect(asked.filter((q) => q === 'export-reports:ada@example.com')).toHaveLength(1);
  });

  it("view data's own `__proto__` key is a value, not the prototype of the page's variables", async () => {
    const page = (await server.client().get('/proto')).text;
    expect(field(page, 'polluted')).toBe('no');
    expect(field(page, 'token')).toBe('true');
  });

  it('can() refuses everything to guests without asking the policy, and follows the gate for other users', async () => {
    asked.length = 0;
    const guest = (await server.client().get('/can')).text;
    expect(field(guest, 'reports')).toBe('false');
    expect(field(guest, 'posts')).toBe('Mine:false;Theirs:false;');
    expect(asked).toEqual([]);
    const bob = await signedIn('bob-can@example.com');
    const page = (await bob.get('/can')).text;
    expect(field(page, 'reports')).toBe('false');
    expect(field(page, 'posts')).toBe('Mine:false;Theirs:false;');
    expect(field(page, 'macro')).toBe('');
  });
});
