import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { APP, rendererFor } from '../app-views.js';

/** The kit's actions as an app page uses them, rendered with debug on (an undefined value printed fails). */
async function render(body: string, globals: Record<string, unknown> = {}, data: Record<string, unknown> = {}): Promise<string> {
  const page = `{% from "fw/ui.html" import confirm, sheet, action_sheet, action_group, wizard, wizard_step, wizard_action, import_action %}${body}`;
  const renderer = rendererFor({ 'page.html': page }, {
    debug: true,
    globals: {
      csrf_field: () => new nunjucks.runtime.SafeString('<input type="hidden" name="_token" value="t0ken">'),
      ...globals,
    },
  });
  return renderer.render('page.html', { ...APP, ...data });
}

describe('the UI kit actions (fw/ui/actions.html)', () => {
  it('confirm: attributes that ask in a dialog, with the translated title and buttons', async () => {
    const html = await render(`<form method="post" action="/x" {{ confirm('Delete "Lamp"?', danger=true) }}></form>`);
    expect(html).toContain('data-fw-confirm="Delete &quot;Lamp&quot;?"');
    expect(html).toContain('data-fw-confirm-title="Are you sure?"');
    expect(html).toContain('data-fw-confirm-yes="Confirm"');
    expect(html).toContain('data-fw-confirm-no="Cancel"');
    expect(html).toContain('data-fw-confirm-danger');
    const own = await render(`<a href="/x" {{ confirm('Leave?', title='Unsaved', yes='Leave', no='Stay') }}>x</a>`);
    expect(own).toContain('data-fw-confirm-title="Unsaved" data-fw-confirm-yes="Leave" data-fw-confirm-no="Stay"');
    expect(own).not.toContain('data-fw-confirm-danger');
  });

  it('sheet: a dialog labelled by its title, with a close control, its width and kind as data attributes', async () => {
    const html = await render(`{% call sheet('details', 'Order details', slide_over=false, width='wide') %}<p>Body</p>{% endcall %}`);
    expect(html).toMatch(/<dialog class="fw-sheet" id="details" data-fw-sheet aria-labelledby="details-title" data-fw-width="wide" data-fw-kind="modal">/u);
    expect(html).toContain('<h2 class="fw-sheet-title" id="details-title">Order details</h2>');
    expect(html).toMatch(/<a class="fw-sheet-close" href="#" data-fw-close aria-label="Close"><svg class="fw-icon"[^>]* aria-hidden="true">/u);
    expect(html).toContain('<p>Body</p>');
    expect(html).not.toContain('data-fw-reopen');
  });

  it('action_sheet: a link to the sheet opening it, and a form posting to its URL with the token, its method and its sheet', async () => {
    const html = await render(`{% call action_sheet('edit-product', 'Edit', '/products/4', 'Edit the product', method='put', live=true) %}<input name="name">{% endcall %}`);
    expect(html).toContain('<a class="fw-button fw-action" href="#edit-product" data-fw-open="edit-product" aria-haspopup="dialog">Edit</a>');
    expect(html).toContain('id="edit-product-title">Edit the product</h2>');
    expect(html).toContain('<form class="fw-sheet-form" method="post" action="/products/4" hx-post="/products/4" data-live-validate>');
    expect(html).toContain('<input type="hidden" name="_token" value="t0ken"><input type="hidden" name="_method" value="PUT">');
    expect(html).toContain('<input type="hidden" name="_fw_sheet" value="edit-product">');
    expect(html).toContain('<input name="name">');
    expect(html).toContain('<button class="fw-button" type="submit">Save</button>');
    expect(html).toContain('<a class="fw-button fw-button-quiet" href="#" data-fw-close>Cancel</a>');
  });

  it('action_sheet: comes back open after its form failed (old _fw_sheet is its id), and only that sheet', async () => {
    const old = (name: string): string => (name === '_fw_sheet' ? 'a' : '');
    const html = await render(`{% call action_sheet('a', 'A', '/a') %}x{% endcall %}{% call action_sheet('b', 'B', '/b') %}y{% endcall %}`, { old });
    expect(html).toMatch(/<dialog class="fw-sheet" id="a"[^>]* data-fw-reopen>/u);
    expect(html).toMatch(/<dialog class="fw-sheet" id="b"[^>]*data-fw-kind="slide-over">/u);
  });

  it('action_sheet without a body: a link to the page with the form, whose form the sheet loads', async () => {
    const html = await render(`{{ action_sheet('new', 'New product', '/products/create') }}`);
    expect(html).toContain('<a class="fw-button fw-action" href="/products/create" data-fw-open="new" aria-haspopup="dialog">New product</a>');
    expect(html).toContain('<div data-fw-load hx-get="/products/create" hx-trigger="fw:open" hx-select="main form" hx-target="this" hx-disinherit="hx-select hx-target" hx-boost="true">');
    expect(html).not.toContain('<form');
  });

  it('action_sheet with method get sends no token', async () => {
    const html = await render(`{% call action_sheet('f', 'Filter', '/search', method='get') %}<input name="q">{% endcall %}`);
    expect(html).toContain('<form class="fw-sheet-form" method="get" action="/search" hx-get="/search">');
    expect(html).not.toContain('_token');
  });

  it('action_group: a disclosure with its actions', async () => {
    const html = await render(`{% call action_group() %}<a href="/x">Export</a>{% endcall %}`);
    expect(html).toContain('<details class="fw-action-group">');
    expect(html).toContain('<summary class="fw-button fw-button-quiet">More actions</summary>');
    expect(html).toContain('<div class="fw-action-group-items"><a href="/x">Export</a></div>');
    expect(await render(`{% call action_group('Bulk') %}{% endcall %}`)).toContain('>Bulk</summary>');
  });

  it('wizard and wizard_step: numbered step titles, a fieldset per step, back, next and submit', async () => {
    const html = await render(
      `{% call wizard('signup', ['Account', 'Address'], 'Create') %}{% call wizard_step('Account') %}<input name="email">{% endcall %}{% call wizard_step('Address') %}<input name="city">{% endcall %}{% endcall %}`,
    );
    expect(html).toContain('<div class="fw-wizard" id="signup" data-fw-wizard>');
    expect(html).toContain('<li class="fw-wizard-marker" data-fw-wizard-marker>Step 1 of 2: Account</li>');
    expect(html).toContain('<li class="fw-wizard-marker" data-fw-wizard-marker>Step 2 of 2: Address</li>');
    expect(html).toContain('<fieldset class="fw-wizard-step" data-fw-step>\n  <legend class="fw-wizard-title">Account</legend>');
    expect(html).toContain('<input name="city">');
    expect(html).toContain('<button class="fw-button fw-button-quiet" type="button" data-fw-wizard-back>Back</button>');
    expect(html).toContain('<button class="fw-button" type="button" data-fw-wizard-next>Next</button>');
    expect(html).toContain('<button class="fw-button" type="submit" data-fw-wizard-submit>Create</button>');
  });

  it('wizard_action: a sheet whose form holds the wizard, without a second submit button', async () => {
    const html = await render(`{% call wizard_action('onboard', 'Start', '/onboard', steps=['One', 'Two'], submit_label='Finish') %}{% call wizard_step('One') %}<input name="a">{% endcall %}{% endcall %}`);
    expect(html).toContain('href="#onboard" data-fw-open="onboard"');
    expect(html).toContain('<form class="fw-sheet-form" method="post" action="/onboard" hx-post="/onboard">');
    expect(html).toContain('<div class="fw-wizard" id="onboard-wizard" data-fw-wizard>');
    expect(html).toContain('<input name="a">');
    expect(html.match(/type="submit"/gu)).toHaveLength(1);
    expect(html).toContain('data-fw-wizard-submit>Finish</button>');
  });

  it('import_action: a multipart sheet with a CSV file field, the columns and the template link', async () => {
    const html = await render(`{{ import_action('import', 'Import products', '/products/import', columns=['name', 'price'], template_url='/products/import/template') }}`);
    expect(html).toContain('>Import products</a>');
    expect(html).toContain('enctype="multipart/form-data" hx-encoding="multipart/form-data"');
    expect(html).toContain('<p class="fw-import-note" id="import-columns">The file&#39;s columns, in this order:</p>');
    expect(html).toContain('<li><code>name</code></li><li><code>price</code></li>');
    expect(html).toContain('<a class="fw-import-template" href="/products/import/template" download>Download a template</a>');
    expect(html).toContain('<label class="fw-label" for="import-file">CSV file</label>');
    expect(html).toContain('<input class="fw-input" type="file" id="import-file" name="file" accept=".csv,text/csv" required>');
    expect(html).toContain('<button class="fw-button" type="submit">Import</button>');
  });

  it('speaks German with the German translations', async () => {
    const html = await render(`{% call action_sheet('a', 'A', '/a') %}x{% endcall %}`, {}, { app: { name: 'x', locale: 'de' } });
    expect(html).toMatch(/Abbrechen|Speichern/u);
  });
});

describe('the kitchen sink section fw/dev/ui/actions.html', () => {
  it('shows every actions macro, with filled and failing sheets, and renders with debug on', async () => {
    const old = (name: string): string => (name.startsWith('filled_') ? 'Sample value' : '');
    const error = (name: string): string | null => (name.startsWith('invalid_') ? 'This field is required.' : null);
    const html = await render('{% include "fw/dev/ui/actions.html" %}', { old, error });
    for (const macro of ['confirm()', 'sheet()', 'action_sheet()', 'action_group()', 'wizard() / wizard_step()', 'wizard_action()', 'import_action()']) expect(html).toContain(`<h3>${macro}</h3>`);
    expect(html).toContain('value="Sample value"');
    expect(html).toMatch(/aria-invalid="true" aria-describedby="sink-actions-invalid_name-error">/u);
    expect(html).toContain('<p class="fw-error" id="sink-actions-invalid_name-error">This field is required.</p>');
    expect(html).toMatch(/id="sink-actions-filled_locked" name="filled_locked" value="Sample value" disabled/u);
    expect(html.match(/<dialog /gu)?.length).toBeGreaterThanOrEqual(7);
  });

  it('action_sheet and action_group draw their icon (decorative) before the label', async () => {
    const html = await render(`{% call action_sheet('a', 'Add', '/a', icon='plus') %}x{% endcall %}{% call action_group('Bulk', icon='more-horizontal') %}y{% endcall %}`);
    expect(html).toMatch(/data-fw-open="a" aria-haspopup="dialog"><svg class="fw-icon"[^>]* aria-hidden="true">.*<\/svg>Add<\/a>/su);
    expect(html).toMatch(/<summary class="fw-button fw-button-quiet"><svg class="fw-icon"[^>]* aria-hidden="true">.*<\/svg>Bulk<\/summary>/su);
    expect(await render(`{% call action_sheet('b', 'Plain', '/b') %}x{% endcall %}`)).toContain('aria-haspopup="dialog">Plain</a>');
  });
});
