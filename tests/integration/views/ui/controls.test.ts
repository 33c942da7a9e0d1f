import { describe, expect, it } from 'vitest';
import { renderKit, squeeze, tagWith } from './render-kit.js';

describe('UI kit controls: button', () => {
  it('is a submit button in the primary tone by default', async () => {
    expect(squeeze(await renderKit('button', '{{ button("Save") }}'))).toBe('<button class="fw-button fw-button-primary" type="submit"><span>Save</span></button>');
  });

  it('shows its keyboard shortcut as <kbd> and announces it with aria-keyshortcuts', async () => {
    const html = await renderKit('button', '{{ button("Save", key="ctrl+s") }}{{ button("New", key="n", type="button") }}');
    expect(tagWith(html, 'Control+S')).toContain('data-fw-key="ctrl+s" aria-keyshortcuts="Control+S"');
    expect(html).toContain('<kbd class="fw-kbd">Ctrl+S</kbd></button>');
    expect(tagWith(html, 'data-fw-key="n"')).toContain('aria-keyshortcuts="N"');
  });

  it('carries an icon (hidden from screen readers) and a badge after the label', async () => {
    const html = squeeze(await renderKit('button', '{{ button("Inbox", icon="download", badge=3, tone="secondary", size="small") }}'));
    expect(html).toMatch(/^<button class="fw-button fw-button-secondary fw-button-small" type="submit"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span>Inbox<\/span><span class="fw-button-badge">3<\/span><\/button>$/u);
  });

  it('is disabled with its reason tied to it for screen readers and shown as a tooltip', async () => {
    const html = squeeze(await renderKit('button', '{{ button("Publish", disabled_reason="Add a title first") }}'));
    expect(html).toBe(
      '<span class="fw-disabled-reason" title="Add a title first"><button class="fw-button fw-button-primary" type="submit" id="fw-button-publish" disabled aria-describedby="fw-button-publish-reason"><span>Publish</span></button>'
      + '<span class="fw-visually-hidden" id="fw-button-publish-reason">Add a title first</span></span>',
    );
  });

  it('passes name, value, form, id and extra attributes, escaped', async () => {
    const html = await renderKit('button', '{{ button("Go", name="op", value="a&b", form="f1", id="go", disabled=true, attrs={"hx-post": "/x?a=1&b=2"}) }}');
    expect(tagWith(html, '<button')).toBe('<button class="fw-button fw-button-primary" type="submit" id="go" name="op" value="a&amp;b" form="f1" disabled hx-post="/x?a=1&amp;b=2">');
  });
});

describe('UI kit controls: attrs', () => {
  it.each(['button("Go", attrs=a)', 'icon_button("trash", "Delete", attrs=a)', 'menu_button("Archive", attrs=a)'])(
    '%s drops injected names, handlers, style and script URLs, keeping plain attributes',
    async (call) => {
      const attrs = '{"x autofocus onfocus": "y", "onclick": "steal()", "style": "color:red", "formaction": " JavaScript:alert(1)", "href": "data:text/html,x", "hx-post": "/ok", "formAction": "/save"}';
      const html = await renderKit(call.slice(0, call.indexOf('(')), `{% set a = ${attrs} %}{{ ${call} }}`);
      const button = tagWith(html, '<button');
      expect(button).toContain('hx-post="/ok"');
      expect(button).toContain('formaction="/save"');
      for (const refused of ['autofocus', 'onfocus', 'onclick', 'style=', 'javascript', 'data:']) expect(button.toLowerCase()).not.toContain(refused);
    },
  );
});

describe('UI kit controls: icon_button', () => {
  it('is named by its label, for screen readers and as a tooltip', async () => {
    const html = squeeze(await renderKit('icon_button', '{{ icon_button("trash", "Delete order", tone="danger", key="Delete") }}'));
    expect(html).toMatch(/^<button class="fw-icon-button fw-icon-button-danger" type="button" aria-label="Delete order" title="Delete order" data-fw-key="delete" aria-keyshortcuts="Delete"><svg[^>]*aria-hidden="true"/u);
  });

  it('refuses to render without a label with APP_DEBUG on', async () => {
    await expect(renderKit('icon_button', '{{ icon_button("trash", "") }}')).rejects.toThrow(/fw_ui_icon_button_needs_a_label/u);
  });
});

describe('UI kit controls: table', () => {
  const headers = '["Customer", {"label": "Total", "key": "total", "align": "end"}]';

  it('scrolls in its own focusable, named box and heads columns and rows for screen readers', async () => {
    const html = squeeze(await renderKit('table', `{{ table(${headers}, [["Ada", "$3.00"], ["Bob", "$4.00"]], caption="Orders") }}`));
    expect(html).toMatch(/^<div class="fw-table-box" role="region" tabindex="0" aria-label="Orders"><table class="fw-table"><caption>Orders<\/caption>/u);
    expect(html).toContain('<thead><tr><th scope="col">Customer</th><th scope="col" class="fw-align-end">Total</th></tr></thead>');
    expect(html).toContain('<tr><th scope="row">Ada</th><td class="fw-align-end">$3.00</td></tr>');
  });

  it('reads object rows by the headers’ keys', async () => {
    const html = squeeze(await renderKit('table', '{{ table([{"label": "Name", "key": "name"}, {"label": "City", "key": "city"}], [{"name": "Ada", "city": "London"}], label="People", hide_caption=true) }}'));
    expect(html).toContain('aria-label="People"');
    expect(html).toContain('<tr><th scope="row">Ada</th><td>London</td></tr>');
  });

  it('says when there are no rows, across all columns', async () => {
    expect(squeeze(await renderKit('table', `{{ table(${headers}, []) }}`))).toContain('<tr><td class="fw-table-empty" colspan="2">No results.</td></tr>');
    expect(squeeze(await renderKit('table', `{{ table(${headers}, [], empty="No orders yet.") }}`))).toContain('>No orders yet.</td>');
  });

  it('takes the caller’s rows', async () => {
    expect(squeeze(await renderKit('table', `{% call table(${headers}) %}<tr><td>Mine</td></tr>{% endcall %}`))).toContain('<tbody><tr><td>Mine</td></tr></tbody>');
  });
});

describe('UI kit controls: card', () => {
  it('is a section with a heading, a description and the caller’s body', async () => {
    expect(squeeze(await renderKit('card', '{% call card("Billing", "Where invoices go", level=3) %}<p>Body</p>{% endcall %}'))).toBe(
      '<section class="fw-panel"><h3 class="fw-panel-title">Billing</h3><p class="fw-panel-description">Where invoices go</p><p>Body</p></section>',
    );
    expect(squeeze(await renderKit('card', '{% call card() %}<p>x</p>{% endcall %}'))).toBe('<section class="fw-panel"><p>x</p></section>');
  });
});

describe('UI kit controls: group', () => {
  it('is a fieldset named by its legend, with a hint, that can disable all it holds', async () => {
    expect(squeeze(await renderKit('group', '{% call group("Address", "Where we ship to", disabled=true) %}<input name="city">{% endcall %}'))).toBe(
      '<fieldset class="fw-group" disabled><legend class="fw-group-legend">Address</legend><p class="fw-group-hint">Where we ship to</p><input name="city"></fieldset>',
    );
  });
});

describe('UI kit controls: alert', () => {
  for (const [tone, word, icon] of [['info', 'Note', 'info'], ['success', 'Done', 'check-circle'], ['warning', 'Warning', 'alert-triangle']] as const) {
    it(`${tone}: says its tone in words and does not interrupt (no role=alert)`, async () => {
      const html = squeeze(await renderKit('alert, icon', `{{ alert("Saved.", "${tone}") }}|{{ icon("${icon}") }}`));
      const [alert = '', expectedIcon = ''] = html.split('|');
      expect(alert).toMatch(new RegExp(`^<div class="fw-alert fw-alert-${tone}">`, 'u'));
      expect(alert).toContain(`<span class="fw-visually-hidden">${word}: </span><p class="fw-alert-text">Saved.</p>`);
      expect(alert).toContain(expectedIcon.replace('class="fw-icon"', 'class="fw-icon fw-alert-icon"'));
    });
  }

  it('danger: is announced at once (role=alert), with its title', async () => {
    const html = squeeze(await renderKit('alert', '{{ alert("The card was declined.", "danger", title="Payment failed") }}'));
    expect(html).toMatch(/^<div class="fw-alert fw-alert-danger" role="alert">/u);
    expect(html).toContain('<p class="fw-alert-title"><span class="fw-visually-hidden">Error: </span>Payment failed</p><p class="fw-alert-text">The card was declined.</p>');
  });
});

describe('UI kit controls: badge', () => {
  it('is a label in a tone, neutral by default', async () => {
    expect(squeeze(await renderKit('badge', '{{ badge("Paid", "success") }}{{ badge("Draft") }}'))).toBe('<span class="fw-badge fw-badge-success">Paid</span><span class="fw-badge fw-badge-neutral">Draft</span>');
  });
});

describe('UI kit controls: empty', () => {
  it('shows an icon, a title, a text and an action link', async () => {
    const html = squeeze(await renderKit('empty', '{{ empty("No orders yet", "Orders show here once placed.", "/orders/new", "New order", level=2) }}'));
    expect(html).toMatch(/^<div class="fw-empty"><svg class="fw-icon fw-empty-icon"[^>]*aria-hidden="true"/u);
    expect(html).toContain('<h2 class="fw-empty-title">No orders yet</h2><p class="fw-empty-text">Orders show here once placed.</p><div class="fw-empty-actions"><a class="fw-button fw-button-primary" href="/orders/new">New order</a></div>');
  });

  it('has a translated default title and takes the caller’s actions', async () => {
    const html = squeeze(await renderKit('empty', '{% call empty() %}<button>Import</button>{% endcall %}', { app: { locale: 'de' } }));
    expect(html).toContain('<p class="fw-empty-title">Noch nichts vorhanden</p><div class="fw-empty-actions"><button>Import</button></div>');
  });
});

describe('UI kit controls: tabs and tab_panel', () => {
  const page = '{% call tabs([{"id": "general", "label": "General"}, {"id": "billing", "label": "Billing", "count": 2}], selected="billing", label="Settings") %}'
    + '{% call tab_panel("general", "General") %}<p>G</p>{% endcall %}{% call tab_panel("billing") %}<p>B</p>{% endcall %}{% endcall %}';

  it('without script: links to panels that all show, the chosen tab marked for the script', async () => {
    const html = squeeze(await renderKit('tabs, tab_panel', page));
    expect(html).toContain('<div class="fw-tabs" data-fw-tabs><ul class="fw-tabs-list" aria-label="Settings">');
    expect(html).toContain('<li><a class="fw-tab" id="general-tab" href="#general" data-fw-tab="general">General</a></li>');
    expect(html).toContain('<li><a class="fw-tab" id="billing-tab" href="#billing" data-fw-tab="billing" data-fw-selected>Billing <span class="fw-tab-count">2</span></a></li>');
    expect(html).toContain('<section class="fw-tab-panel" id="general" aria-labelledby="general-tab" data-fw-tab-panel><h2 class="fw-tab-panel-title">General</h2><p>G</p></section>');
    expect(html).toContain('<section class="fw-tab-panel" id="billing" aria-labelledby="billing-tab" data-fw-tab-panel><p>B</p></section>');
    expect(html).not.toContain('hidden');
  });

  it('chooses the first tab when none is selected', async () => {
    const html = await renderKit('tabs', '{{ tabs([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]) }}');
    expect(tagWith(html, 'id="a-tab"')).toContain('data-fw-selected');
    expect(tagWith(html, 'id="b-tab"')).not.toContain('data-fw-selected');
  });
});

describe('UI kit controls: menus', () => {
  it('menu: a <details> disclosure with a labelled button, working without script', async () => {
    const html = squeeze(await renderKit('menu', '{% call menu("Actions", icon="settings", align="end") %}<a href="/x">X</a>{% endcall %}'));
    expect(html).toMatch(/^<details class="fw-menu" data-fw-menu data-fw-align="end"><summary class="fw-button fw-button-secondary fw-menu-trigger"><svg[^>]*>.*?<\/svg><span>Actions<\/span><svg/u);
    expect(html).toMatch(/<\/summary><div class="fw-menu-list"><a href="\/x">X<\/a><\/div><\/details>$/u);
  });

  it('menu: icon only, named for screen readers (default "More")', async () => {
    const html = await renderKit('menu', '{% call menu(icon_only=true) %}x{% endcall %}');
    expect(tagWith(html, '<summary')).toBe('<summary class="fw-icon-button fw-icon-button-quiet fw-menu-trigger" aria-label="More" title="More">');
  });

  it('menu_link: a link item with an icon', async () => {
    expect(squeeze(await renderKit('menu_link', '{{ menu_link("/edit", "Edit", icon="pencil", active=true) }}'))).toMatch(/^<a class="fw-menu-item" href="\/edit" aria-current="page"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span>Edit<\/span><\/a>$/u);
  });

  it('menu_action: a POST form with the CSRF field, the method for PUT/PATCH/DELETE, one submit button', async () => {
    const html = squeeze(await renderKit('menu_action', '{{ menu_action("/orders/1", "Delete", method="delete", tone="danger") }}{{ menu_action("/orders/1/copy", "Copy", name="as", value="draft") }}'));
    expect(html).toContain('<form class="fw-menu-form" method="post" action="/orders/1"><input type="hidden" name="_token" value="t0ken"><input type="hidden" name="_method" value="DELETE"><button class="fw-menu-item fw-menu-item-danger" type="submit"><span>Delete</span></button></form>');
    expect(html).toContain('<form class="fw-menu-form" method="post" action="/orders/1/copy"><input type="hidden" name="_token" value="t0ken"><button class="fw-menu-item" type="submit" name="as" value="draft"><span>Copy</span></button></form>');
  });

  it('menu_separator: a rule between groups', async () => {
    expect(squeeze(await renderKit('menu_separator', '{{ menu_separator() }}'))).toBe('<hr class="fw-menu-separator">');
  });

  it('menu_button: a plain button item with extra attributes', async () => {
    expect(squeeze(await renderKit('menu_button', '{{ menu_button("Archive", icon="download", attrs={"hx-post": "/a"}) }}'))).toMatch(/^<button class="fw-menu-item" type="button" hx-post="\/a"><svg[^>]*>.*<\/svg><span>Archive<\/span><\/button>$/u);
  });

  it('menu_open: opens a dialog or sheet by id, a link to it (or its page) without script', async () => {
    expect(squeeze(await renderKit('menu_open', '{{ menu_open("invite", "Invite") }}'))).toBe('<a class="fw-menu-item" href="#invite" data-fw-open="invite" aria-haspopup="dialog"><span>Invite</span></a>');
    expect(tagWith(await renderKit('menu_open', '{{ menu_open("invite", "Invite", href="/invite") }}'), '<a')).toContain('href="/invite"');
  });

  it('menu_section: items grouped under a heading screen readers hear as the group’s name', async () => {
    expect(squeeze(await renderKit('menu_section', '{% call menu_section("Danger zone") %}<a href="/x">X</a>{% endcall %}'))).toBe(
      '<div class="fw-menu-section" role="group" aria-label="Danger zone"><p class="fw-menu-section-label" aria-hidden="true">Danger zone</p><a href="/x">X</a></div>',
    );
  });
});

describe('UI kit controls: the kitchen-sink section', () => {
  it('shows every controls macro, with APP_DEBUG on', async () => {
    const html = await renderKit('icon', '{% include "fw/dev/ui/controls.html" %}');
    for (const marker of ['fw-button', 'fw-disabled-reason', 'fw-icon-button', 'fw-table-box', 'fw-panel', 'fw-group', 'fw-alert fw-alert-danger', 'fw-badge', 'fw-empty', 'fw-tabs', 'fw-tab-panel', 'fw-menu', 'fw-menu-item', 'fw-menu-form', 'fw-menu-separator', 'fw-menu-section']) {
      expect(html, marker).toContain(`class="${marker}`);
    }
    expect(html).toContain('data-fw-open="sink-dialog"');
    expect(html).toContain('aria-keyshortcuts="N"');
  });
});
