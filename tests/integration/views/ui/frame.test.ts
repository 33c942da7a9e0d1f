import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_TEMPLATES } from '../../../../adapters/views/framework-templates.js';
import { renderKit, squeeze, tagWith } from './render-kit.js';

const ORDERS = { request: { path: '/orders/12', query: { q: 'red shoes' } } };

describe('UI kit frame: icon', () => {
  it('draws a decorative icon hidden from screen readers, 20 px by default', async () => {
    const svg = tagWith(await renderKit('icon', '{{ icon("trash") }}'), '<svg');
    expect(svg).toContain('class="fw-icon"');
    expect(svg).toContain('aria-hidden="true"');
    expect(svg).toContain('width="20" height="20"');
    expect(svg).not.toContain('role=');
  });

  it('draws a labelled icon as an image with that name, in the size asked for', async () => {
    const html = await renderKit('icon', '{{ icon("trash", "lg", "Delete") }}{{ icon("check", 12) }}');
    expect(tagWith(html, 'aria-label="Delete"')).toMatch(/role="img" aria-label="Delete"/u);
    expect(tagWith(html, 'aria-label="Delete"')).toContain('width="24" height="24"');
    expect(html).toContain('width="12" height="12"');
    expect(html).not.toMatch(/aria-label="Delete"[^>]*aria-hidden/u);
  });

  it('fails the render with APP_DEBUG on an unknown icon name, naming the template', async () => {
    await expect(renderKit('icon', '{{ icon("trashcan") }}')).rejects.toThrow(/fw_ui_icon_name_unknown\[name\].*fw\/ui\/frame\.html, line \d+/u);
  });

  it('leaves an unknown icon out without APP_DEBUG', async () => {
    expect((await renderKit('icon', '[{{ icon("trashcan") }}]', {}, { debug: false })).trim()).toBe('[]');
  });

  it('has every icon the kit needs, each drawn exactly as lucide-static draws it', async () => {
    const source = readFileSync(join(FRAMEWORK_TEMPLATES, 'fw/ui/frame.html'), 'utf8');
    const icons = new Map([...source.matchAll(/^ {2}"([a-z-]+)": '([^']*)'/gmu)].map((match) => [match[1]!, match[2]!]));
    const lucide: Record<string, string> = {
      check: 'check', x: 'x', plus: 'plus', minus: 'minus', trash: 'trash-2', pencil: 'pencil', search: 'search',
      'chevron-down': 'chevron-down', 'chevron-up': 'chevron-up', 'chevron-left': 'chevron-left', 'chevron-right': 'chevron-right',
      menu: 'menu', 'more-horizontal': 'ellipsis', 'more-vertical': 'ellipsis-vertical', copy: 'copy', 'external-link': 'external-link',
      upload: 'upload', download: 'download', calendar: 'calendar', eye: 'eye', 'eye-off': 'eye-off', info: 'info',
      'alert-triangle': 'triangle-alert', 'alert-circle': 'circle-alert', 'check-circle': 'circle-check', 'log-out': 'log-out',
      user: 'user', settings: 'settings', home: 'house', filter: 'funnel', 'arrow-left': 'arrow-left', 'arrow-right': 'arrow-right',
      'grip-vertical': 'grip-vertical', refresh: 'refresh-cw',
    };
    const folder = join(dirname(createRequire(import.meta.url).resolve('lucide-static/package.json')), 'icons');
    expect([...icons.keys()].sort()).toEqual(Object.keys(lucide).sort());
    for (const [name, file] of Object.entries(lucide)) {
      const svg = readFileSync(join(folder, `${file}.svg`), 'utf8');
      const body = svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1, svg.lastIndexOf('</svg>'));
      const drawing = body.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => line.replace(/ \/>$/u, '/>')).join('');
      expect(icons.get(name), name).toBe(drawing);
      const html = await renderKit('icon', `{{ icon("${name}") }}`);
      expect(html).toContain(`>${drawing}</svg>`);
    }
  });
});

describe('UI kit frame: navbar', () => {
  it('starts with a skip link to the main content, then the name linking home and the navigation', async () => {
    const html = squeeze(await renderKit('navbar', '{% call navbar("Acme", "/home") %}<a href="/x">X</a>{% endcall %}'));
    expect(html).toMatch(/^<header class="fw-navbar" data-fw-width="wide"><a class="fw-skip-link" href="#main">Skip to main content<\/a>/u);
    expect(html).toContain('<a class="fw-navbar-brand" href="/home">Acme</a>');
    expect(html).toContain('<nav class="fw-navbar-nav" aria-label="Main"><a href="/x">X</a></nav>');
  });

  it('skips to another id, or shows no skip link, as asked; has a width; shows link tabs under it', async () => {
    const other = await renderKit('navbar', '{{ navbar("Acme", skip="content", width="full") }}');
    expect(other).toContain('href="#content"');
    expect(other).toContain('data-fw-width="full"');
    expect(other).not.toContain('<nav class="fw-navbar-nav"');
    expect(await renderKit('navbar', '{{ navbar("Acme", skip=false) }}')).not.toContain('fw-skip-link');
    const tabbed = squeeze(await renderKit('navbar', '{{ navbar("Acme", tabs=[{"href": "/orders", "label": "Orders"}, {"href": "/users", "label": "Users"}]) }}', ORDERS));
    expect(tabbed).toContain('<div class="fw-navbar-tabs"><nav class="fw-link-tabs" aria-label="Acme">');
    expect(tabbed).toContain('<a href="/orders" aria-current="page">Orders</a>');
  });

  it('says its texts in the page language', async () => {
    const html = await renderKit('navbar', '{{ navbar("Acme") }}', { app: { name: 'Acme', locale: 'de' } });
    expect(html).toContain('>Zum Inhalt springen</a>');
  });
});

describe('UI kit frame: nav_links and nav_link', () => {
  it('lists links and marks the current page (and its sub-pages) with aria-current', async () => {
    const html = squeeze(await renderKit('nav_links, nav_link', '{% call nav_links() %}{{ nav_link("/", "Home") }}{{ nav_link("/orders", "Orders", icon="home") }}{{ nav_link("/order", "Order") }}{% endcall %}', ORDERS));
    expect(html).toMatch(/^<ul class="fw-nav-links"><li><a class="fw-nav-link" href="\/"><span>Home<\/span><\/a><\/li>/u);
    expect(tagWith(html, 'href="/orders"')).toContain('aria-current="page"');
    expect(tagWith(html, 'href="/order"')).not.toContain('aria-current');
    expect(html).toMatch(/href="\/orders" aria-current="page"><svg[^>]*aria-hidden="true"/u);
  });

  it('follows `active` when given, either way', async () => {
    const html = await renderKit('nav_link', '{{ nav_link("/orders", "Orders", active=false) }}{{ nav_link("/elsewhere", "Else", active=true) }}', ORDERS);
    expect(tagWith(html, 'href="/orders"')).not.toContain('aria-current');
    expect(tagWith(html, 'href="/elsewhere"')).toContain('aria-current="page"');
  });
});

describe('UI kit frame: nav_search', () => {
  it('is a labelled GET search form keeping the query typed before', async () => {
    const html = squeeze(await renderKit('nav_search', '{{ nav_search("/search") }}', ORDERS));
    expect(html).toContain('<form class="fw-nav-search" role="search" method="get" action="/search">');
    expect(html).toContain('<label class="fw-visually-hidden" for="fw-nav-search">Search</label>');
    expect(html).toContain('<input id="fw-nav-search" type="search" name="q" value="red shoes" autocomplete="off">');
    expect(html).toMatch(/<button class="fw-nav-search-button" type="submit"><svg[^>]*role="img" aria-label="Search">/u);
  });

  it('takes another name, label and value', async () => {
    const html = await renderKit('nav_search', '{{ nav_search(name="term", label="Find orders", value="x", id="s") }}');
    expect(html).toContain('<label class="fw-visually-hidden" for="s">Find orders</label>');
    expect(html).toContain('name="term" value="x"');
  });
});

describe('UI kit frame: sidebar, sidebar_section and sidebar_link', () => {
  it('is a navigation landmark named after the sidebar, with titled sections of links', async () => {
    const html = squeeze(await renderKit('sidebar, sidebar_section, sidebar_link', '{% call sidebar("Settings") %}{% call sidebar_section("Account") %}{{ sidebar_link("/orders", "Orders", icon="user", badge=4) }}{{ sidebar_link("/profile", "Profile") }}{% endcall %}{% endcall %}', ORDERS));
    expect(html).toMatch(/^<nav class="fw-sidebar" aria-label="Settings"><p class="fw-sidebar-name">Settings<\/p>/u);
    expect(html).toContain('<div class="fw-sidebar-section"><p class="fw-sidebar-title">Account</p><ul class="fw-sidebar-links">');
    expect(html).toMatch(/<a class="fw-sidebar-link" href="\/orders" aria-current="page"><svg[^>]*>.*?<\/svg><span>Orders<\/span><span class="fw-sidebar-badge">4<\/span><\/a>/u);
    expect(tagWith(html, 'href="/profile"')).not.toContain('aria-current');
  });
});

describe('UI kit frame: page_header', () => {
  it('gives the page its h1, a subtitle, a back link and the caller’s actions', async () => {
    const html = squeeze(await renderKit('page_header', '{% call page_header("Order 12", "Placed today", back="/orders") %}<button>Edit</button>{% endcall %}'));
    expect(html).toMatch(/<a class="fw-page-back" href="\/orders"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span>Back<\/span><\/a>/u);
    expect(html).toContain('<h1 class="fw-page-title">Order 12</h1><p class="fw-page-subtitle">Placed today</p>');
    expect(html).toContain('<div class="fw-page-actions"><button>Edit</button></div>');
  });

  it('takes another heading level where the page has its h1 already', async () => {
    expect(await renderKit('page_header', '{{ page_header("Orders", level=2) }}')).toContain('<h2 class="fw-page-title">Orders</h2>');
  });

  it('shows only the title when that is all it has', async () => {
    const html = squeeze(await renderKit('page_header', '{{ page_header("Orders") }}'));
    expect(html).toBe('<header class="fw-page-header"><div class="fw-page-header-row"><div class="fw-page-header-text"><h1 class="fw-page-title">Orders</h1></div></div></header>');
  });
});

describe('UI kit frame: toolbar and row_actions', () => {
  it('toolbar wraps the caller’s controls, as a named group when labelled', async () => {
    expect(squeeze(await renderKit('toolbar', '{% call toolbar("Filters") %}<button>A</button>{% endcall %}'))).toBe('<div class="fw-toolbar" role="group" aria-label="Filters"><button>A</button></div>');
    expect(squeeze(await renderKit('toolbar', '{% call toolbar() %}x{% endcall %}'))).toBe('<div class="fw-toolbar">x</div>');
  });

  it('row_actions keeps a row’s actions together', async () => {
    expect(squeeze(await renderKit('row_actions', '{% call row_actions("Order 12") %}<a href="/e">Edit</a>{% endcall %}'))).toBe('<div class="fw-row-actions" role="group" aria-label="Order 12"><a href="/e">Edit</a></div>');
  });
});

describe('UI kit frame: list', () => {
  it('lists items with titles, links and texts', async () => {
    const html = squeeze(await renderKit('list', '{{ list([{"title": "Ada", "href": "/u/1", "text": "Admin"}, {"title": "Bob"}, "Plain"], label="Users") }}'));
    expect(html).toContain('<ul class="fw-list" aria-label="Users">');
    expect(html).toContain('<li class="fw-list-item"><a class="fw-list-title" href="/u/1">Ada</a><span class="fw-list-text">Admin</span></li>');
    expect(html).toContain('<li class="fw-list-item"><span class="fw-list-title">Bob</span></li>');
    expect(html).toContain('<li class="fw-list-item">Plain</li>');
  });

  it('says when it is empty, and takes the caller’s own items', async () => {
    expect(squeeze(await renderKit('list', '{{ list([]) }}'))).toContain('<li class="fw-list-item fw-list-empty">Nothing here yet.</li>');
    expect(squeeze(await renderKit('list', '{{ list([], empty="No users") }}'))).toContain('>No users</li>');
    expect(squeeze(await renderKit('list', '{% call list() %}<li>Mine</li>{% endcall %}'))).toBe('<ul class="fw-list"><li>Mine</li></ul>');
  });
});

describe('UI kit frame: card_grid and media_card', () => {
  it('sets cards in a named grid, each with a picture and a linked heading at the level asked for', async () => {
    const html = squeeze(await renderKit('card_grid, media_card', '{% call card_grid(4, label="Products") %}{% call media_card("/p/1", "Red shoe", "/img/1.jpg", alt="A red shoe") %}<p>€50</p>{% endcall %}{{ media_card(none, "No picture", text="Soon", level=2) }}{% endcall %}'));
    expect(html).toContain('<div class="fw-card-grid" data-fw-columns="4" role="group" aria-label="Products">');
    expect(html).toContain('<article class="fw-media-card"><img class="fw-media-card-image" src="/img/1.jpg" alt="A red shoe" loading="lazy">');
    expect(html).toContain('<h3 class="fw-media-card-title"><a href="/p/1">Red shoe</a></h3><p>€50</p>');
    expect(html).toContain('<h2 class="fw-media-card-title">No picture</h2><p class="fw-media-card-text">Soon</p>');
  });
});

describe('UI kit frame: link_tabs', () => {
  it('marks the current page’s tab, from the request or from `current`, with counts', async () => {
    const items = '[{"href": "/orders", "label": "Orders", "count": 3}, {"href": "/users", "label": "Users"}]';
    const byPath = squeeze(await renderKit('link_tabs', `{{ link_tabs(${items}) }}`, ORDERS));
    expect(byPath).toContain('<nav class="fw-link-tabs" aria-label="Pages"><ul><li><a href="/orders" aria-current="page">Orders <span class="fw-link-tabs-count">3</span></a></li><li><a href="/users">Users</a></li></ul></nav>');
    const chosen = squeeze(await renderKit('link_tabs', `{{ link_tabs(${items}, "/users", label="Sections") }}`, ORDERS));
    expect(tagWith(chosen, 'href="/users"')).toContain('aria-current="page"');
    expect(tagWith(chosen, 'href="/orders"')).not.toContain('aria-current');
    expect(chosen).toContain('aria-label="Sections"');
  });
});

describe('UI kit frame: progress', () => {
  it('is a real <progress> with its value, maximum and name, and the percentage in words', async () => {
    const html = squeeze(await renderKit('progress', '{{ progress(3, 4, "Import") }}'));
    expect(html).toContain('<progress max="4" value="3" aria-label="Import">75%</progress>');
    expect(html).toContain('<span class="fw-progress-label" aria-hidden="true">Import <span class="fw-progress-value">75%</span></span>');
  });

  it('is indeterminate without a value, and can hide its visible label', async () => {
    const html = squeeze(await renderKit('progress', '{{ progress(hide_label=true) }}'));
    expect(html).toBe('<div class="fw-progress"><progress max="100" aria-label="Progress"></progress></div>');
  });
});

describe('UI kit frame: link_button', () => {
  it('is a link styled as a button, in a tone, with an icon', async () => {
    const html = squeeze(await renderKit('link_button', '{{ link_button("/new", "New order", "secondary", icon="plus", size="small") }}'));
    expect(html).toMatch(/^<a class="fw-button fw-button-secondary fw-button-small" href="\/new"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span>New order<\/span><\/a>$/u);
  });

  it('says when it opens a new window', async () => {
    const html = squeeze(await renderKit('link_button', '{{ link_button("https://example.com", "Docs", external=true) }}'));
    expect(html).toContain('rel="noopener noreferrer" target="_blank"');
    expect(html).toContain('<span class="fw-visually-hidden"> (opens in a new window)</span>');
  });
});

describe('UI kit frame: thumbnail', () => {
  it('shows a lazy picture with its alternative text, round for avatars', async () => {
    expect(squeeze(await renderKit('thumbnail', '{{ thumbnail("/a.jpg", "Ada", "sm", round=true) }}'))).toBe('<img class="fw-thumbnail fw-thumbnail-round" data-fw-size="sm" src="/a.jpg" alt="Ada" loading="lazy">');
  });

  it('shows a placeholder without a picture: hidden when decorative, named when it has alt text', async () => {
    expect(tagWith(await renderKit('thumbnail', '{{ thumbnail(none) }}'), 'fw-thumbnail-empty')).toContain('aria-hidden="true"');
    expect(tagWith(await renderKit('thumbnail', '{{ thumbnail("", "Ada") }}'), 'fw-thumbnail-empty')).toContain('role="img" aria-label="Ada"');
  });
});

describe('UI kit frame: the kitchen-sink section', () => {
  it('shows every frame macro, with APP_DEBUG on', async () => {
    const html = await renderKit('icon', '{% include "fw/dev/ui/frame.html" %}', ORDERS);
    for (const marker of ['fw-navbar', 'fw-nav-links', 'fw-nav-link', 'fw-nav-search', 'fw-sidebar', 'fw-sidebar-section', 'fw-sidebar-link', 'fw-page-header', 'fw-toolbar', 'fw-row-actions', 'fw-list', 'fw-card-grid', 'fw-media-card', 'fw-link-tabs', 'fw-progress', 'fw-button fw-button-danger', 'fw-thumbnail', 'fw-icon']) {
      expect(html, marker).toContain(`class="${marker}`);
    }
    expect(html.match(/role="img" aria-label="[a-z-]+"/gu)?.length).toBe(34);
  });
});
