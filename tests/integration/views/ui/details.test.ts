import { describe, expect, it } from 'vitest';
import { renderKit, squeeze } from './render-kit.js';

/** The page of a shop in Berlin selling in euros, at a fixed moment. */
const BERLIN = { app: { name: 'Acme', locale: 'en', timezone: 'Europe/Berlin', currency: 'EUR' }, now: new Date('2024-03-01T12:00:00Z') };
const entry = async (args: string, context: Record<string, unknown> = BERLIN): Promise<string> => squeeze(await renderKit('entry', `{{ entry(${args}) }}`, context));
/** The value's part of an entry: what is inside <div class="fw-entry-main">. */
const valueOf = (html: string): string => /<div class="fw-entry-main">(.*?)<\/div>(?:<div class="fw-entry-actions">|<\/dd>)/u.exec(html)?.[1] ?? html;

describe('UI kit details: infolist', () => {
  it('is a description list in columns holding the entries', async () => {
    const html = squeeze(await renderKit('infolist, entry', '{% call infolist(3, label="Order") %}{{ entry("Number", 12) }}{% endcall %}'));
    expect(html).toBe('<dl class="fw-infolist" data-fw-columns="3" aria-label="Order"><div class="fw-entry"><dt class="fw-entry-label">Number</dt><dd class="fw-entry-value"><div class="fw-entry-main">12</div></dd></div></dl>');
  });
});

describe('UI kit details: entry', () => {
  it('shows a translated placeholder for a missing, empty or blank value, but not for false or 0', async () => {
    for (const value of ['none', 'undefined_variable', '""', '"  "', '[]']) {
      expect(valueOf(await entry(`"Phone", ${value}`)), value).toBe('<span class="fw-entry-empty">Not set</span>');
    }
    expect(valueOf(await entry('"Phone", none', { app: { locale: 'de' } }))).toBe('<span class="fw-entry-empty">Nicht angegeben</span>');
    expect(valueOf(await entry('"Phone", none, empty="Unlisted"'))).toBe('<span class="fw-entry-empty">Unlisted</span>');
    expect(valueOf(await entry('"Count", 0'))).toBe('0');
    expect(valueOf(await entry('"Active", false, format="bool"'))).toContain('No</span>');
  });

  it('prints a plain value escaped', async () => {
    expect(valueOf(await entry('"Note", "<b>hi</b>"'))).toBe('&lt;b&gt;hi&lt;/b&gt;');
  });

  it('format date: the day in APP_TIMEZONE, machine-readable in <time>', async () => {
    expect(valueOf(await entry('"Shipped", "2024-02-29T23:30:00Z", format="date"'))).toBe('<time datetime="2024-03-01">2024-03-01</time>');
    expect(valueOf(await entry('"Shipped", "2024-02-29T23:30:00Z", format="date", date_format="%d %B %Y"'))).toBe('<time datetime="2024-03-01">01 March 2024</time>');
  });

  it('format datetime: date and time in APP_TIMEZONE, the instant in UTC for machines', async () => {
    expect(valueOf(await entry('"Placed", "2024-02-29T23:30:00Z", format="datetime"'))).toBe('<time datetime="2024-02-29T23:30:00Z">2024-03-01 00:30</time>');
  });

  it('format since: how long ago, with the exact time as its tooltip', async () => {
    expect(valueOf(await entry('"Seen", "2024-03-01T09:00:00Z", format="since"'))).toBe('<time datetime="2024-03-01T09:00:00Z" title="2024-03-01 10:00">3 hours ago</time>');
  });

  it('format money: cents in APP_CURRENCY, or another currency, or whole units', async () => {
    expect(valueOf(await entry('"Total", 1999, format="money"'))).toBe('<span class="fw-entry-number">€19.99</span>');
    expect(valueOf(await entry('"Total", 1999, format="money", currency="USD"'))).toBe('<span class="fw-entry-number">$19.99</span>');
    expect(valueOf(await entry('"Total", 20, format="money", divide_by=1'))).toBe('<span class="fw-entry-number">€20.00</span>');
    expect(valueOf(await entry('"Total", 1999, format="money"', { app: { locale: 'de', currency: 'EUR' } }))).toBe('<span class="fw-entry-number">19,99\u00a0€</span>');
  });

  it('format number: grouped for the locale, with decimals', async () => {
    expect(valueOf(await entry('"Visits", 1234567, format="number"'))).toBe('<span class="fw-entry-number">1,234,567</span>');
    expect(valueOf(await entry('"Rate", 1234.5, format="number", decimals=2', { app: { locale: 'de' } }))).toBe('<span class="fw-entry-number">1.234,50</span>');
  });

  it('format bool: yes or no in words (translated), with a matching icon', async () => {
    expect(valueOf(await entry('"Active", true, format="bool"'))).toMatch(/^<span class="fw-entry-bool fw-entry-bool-yes"><svg[^>]*aria-hidden="true"[^>]*><path d="M20 6 9 17l-5-5"\/><\/svg>Yes<\/span>$/u);
    expect(valueOf(await entry('"Active", false, format="bool"', { app: { locale: 'de' } }))).toMatch(/^<span class="fw-entry-bool fw-entry-bool-no"><svg[^>]*>.*<\/svg>Nein<\/span>$/u);
  });

  it('format color: a swatch drawn by an SVG attribute (no inline style) and the code', async () => {
    expect(valueOf(await entry('"Brand", "#1a5fd0", format="color"'))).toBe(
      '<span class="fw-entry-color"><svg class="fw-entry-swatch" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><rect width="16" height="16" rx="3" fill="#1a5fd0"/></svg><code>#1a5fd0</code></span>',
    );
    expect(await entry('"Brand", "red\\" onload=\\"x", format="color"')).not.toContain('" onload="');
  });

  it('format image: the picture, named by the entry’s label; a list of them as thumbnails', async () => {
    expect(valueOf(await entry('"Photo", "/p.jpg", format="image"'))).toBe('<img class="fw-entry-image" src="/p.jpg" alt="Photo" loading="lazy">');
    expect(await entry('"Photos", ["/a.jpg", "/b.jpg"], format="image"')).toContain('<ul class="fw-entry-list fw-entry-images"><li><img class="fw-entry-image" src="/a.jpg"');
  });

  it('format markdown: rendered, typed-in HTML shown as text', async () => {
    expect(valueOf(await entry('"About", "**Bold** <script>x</script>", format="markdown"'))).toBe('<div class="fw-entry-markdown"><p><strong>Bold</strong> &lt;script&gt;x&lt;/script&gt;</p></div>');
  });

  it('format key_value: an object as a nested list of keys and values', async () => {
    expect(valueOf(await entry('"Meta", {"source": "ads", "campaign": none}, format="key_value"'))).toBe(
      '<dl class="fw-key-value"><div class="fw-key-value-row"><dt>source</dt><dd>ads</dd></div><div class="fw-key-value-row"><dt>campaign</dt><dd></dd></div></dl>',
    );
  });

  it('labels: shows the text for a stored value; badge: in a tone per value', async () => {
    const labels = 'labels={"paid": "Paid", "open": "Open"}';
    expect(valueOf(await entry(`"Status", "paid", ${labels}`))).toBe('Paid');
    expect(valueOf(await entry(`"Status", "paid", ${labels}, badge={"paid": "success"}`))).toBe('<span class="fw-badge fw-badge-success">Paid</span>');
    expect(valueOf(await entry(`"Status", "open", ${labels}, badge={"paid": "success"}`))).toBe('<span class="fw-badge fw-badge-neutral">Open</span>');
    expect(valueOf(await entry('"Status", "new", badge="info"'))).toBe('<span class="fw-badge fw-badge-info">new</span>');
    expect(valueOf(await entry('"Status", "new", badge=true'))).toBe('<span class="fw-badge fw-badge-neutral">new</span>');
  });

  it('list: shows each item, formatted; a single value as a list of one', async () => {
    expect(valueOf(await entry('"Tags", ["a", "b"], badge=true'))).toBe('<ul class="fw-entry-list"><li><span class="fw-badge fw-badge-neutral">a</span></li><li><span class="fw-badge fw-badge-neutral">b</span></li></ul>');
    expect(valueOf(await entry('"Tags", "solo", list=true'))).toBe('<ul class="fw-entry-list"><li>solo</li></ul>');
    expect(valueOf(await entry('"Totals", [100, 250], format="money"'))).toBe('<ul class="fw-entry-list"><li><span class="fw-entry-number">€1.00</span></li><li><span class="fw-entry-number">€2.50</span></li></ul>');
  });

  it('limit_list: shows that many and the rest behind "n more", which opens without script', async () => {
    const html = valueOf(await entry('"Tags", ["a", "b", "c", "d", "e"], limit_list=2'));
    expect(html).toBe('<ul class="fw-entry-list"><li>a</li><li>b</li></ul><details class="fw-entry-more"><summary>3 more</summary><ul class="fw-entry-list"><li>c</li><li>d</li><li>e</li></ul></details>');
    expect(valueOf(await entry('"Tags", ["a", "b"], limit_list=2'))).toBe('<ul class="fw-entry-list"><li>a</li><li>b</li></ul>');
  });

  it('copyable: a copy button (shown by the script) named after the entry, with a live status', async () => {
    const html = await entry('"Order number", "A-12", copyable=true');
    expect(html).toMatch(/<div class="fw-entry-actions"><button class="fw-icon-button fw-icon-button-quiet fw-copy" type="button" hidden data-fw-copy="A-12" data-fw-copied="Copied" aria-label="Copy Order number" title="Copy Order number"><svg[^>]*aria-hidden="true"/u);
    expect(html).toContain('<span class="fw-visually-hidden" role="status" data-fw-copy-status></span>');
    expect(await entry('"Order number", none, copyable=true')).not.toContain('fw-copy');
  });

  it('suffix_actions: icon links after the value, each named', async () => {
    const html = await entry('"Email", "ada@example.com", suffix_actions=[{"href": "mailto:ada@example.com", "label": "Write to Ada", "icon": "external-link"}]');
    expect(html).toMatch(/<a class="fw-icon-button fw-icon-button-quiet" href="mailto:ada@example.com" aria-label="Write to Ada" title="Write to Ada"><svg[^>]*aria-hidden="true"/u);
  });
});

describe('UI kit details: repeatable', () => {
  it('shows each record through the caller, as an ordered list of infolists', async () => {
    const html = squeeze(await renderKit('repeatable, entry', '{% call(address) repeatable("Addresses", [{"city": "Berlin"}, {"city": "Paris"}], columns=1) %}{{ entry("City", address.city) }}{% endcall %}'));
    expect(html).toMatch(/^<section class="fw-repeatable" aria-label="Addresses"><p class="fw-repeatable-label" aria-hidden="true">Addresses<\/p><ol class="fw-repeatable-items">/u);
    expect(html).toContain('<li class="fw-repeatable-item"><dl class="fw-infolist" data-fw-columns="1"><div class="fw-entry"><dt class="fw-entry-label">City</dt><dd class="fw-entry-value"><div class="fw-entry-main">Berlin</div></dd></div></dl></li>');
    expect(html).toContain('>Paris</div>');
  });

  it('shows the placeholder for no records', async () => {
    expect(squeeze(await renderKit('repeatable', '{{ repeatable("Addresses", []) }}'))).toContain('<p class="fw-entry-empty">Not set</p>');
    expect(squeeze(await renderKit('repeatable', '{{ repeatable("Addresses", none, empty="No addresses") }}'))).toContain('<p class="fw-entry-empty">No addresses</p>');
  });
});

describe('UI kit details: the kitchen-sink section', () => {
  it('shows the infolist with an entry in every format, and repeatables, with APP_DEBUG on', async () => {
    const html = await renderKit('icon', '{% include "fw/dev/ui/details.html" %}', BERLIN);
    for (const marker of ['fw-infolist', 'fw-entry-empty', 'fw-entry-number', 'fw-entry-bool', 'fw-entry-color', 'fw-entry-markdown', 'fw-key-value', 'fw-badge fw-badge-success', 'fw-entry-more', 'fw-icon-button fw-icon-button-quiet fw-copy', 'fw-repeatable']) {
      expect(html, marker).toContain(`class="${marker}`);
    }
    expect(html).toContain('<time datetime="2024-03-01T09:30:00Z">2024-03-01 10:30</time>');
    expect(html).toContain('3 hours ago</time>');
  });
});
