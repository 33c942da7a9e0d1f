/**
 * The UI kit's fields (templates/fw/ui/fields.html), rendered by a real app: the real nunjucks
 * renderer and the kernel's view globals, so old() and error() read a session that a failed
 * submit (POST /flash) filled, as after a redirect back. APP_DEBUG is on: a macro printing an
 * undefined value would fail the page. Each test asserts what a visitor or a screen reader
 * meets: labels, names, values, states, aria-describedby and aria-invalid.
 */
import { readFileSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, View, text } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { FRAMEWORK_TEMPLATES } from '../../../../adapters/views/framework-templates.js';
import { useTempDir } from '../../../support/databases.js';

const IMPORT = '{% from "fw/ui.html" import input, textarea, select, checkbox, radio, checkbox_list, toggle_buttons, show_when, date_picker, file, tags_input, key_value, repeater, form_grid, form_errors %}';

/** One template per test, each a few kit calls. */
const VIEWS: Record<string, string> = {
  input: `{{ input('email', 'Email', type='email', value='ada@example.com') }}{{ input('password', 'Password', type='password') }}`,
  textarea: `{{ textarea('bio', 'About you', rows=6, value='<b>bold</b> & more') }}`,
  select: `{{ select('country', 'Country', options={de: 'Germany', fr: 'France'}, value='fr', placeholder='Choose…') }}
{{ select('size', 'Size', options=['S', 'M', 'L']) }}{{ select('tone', 'Tone', options=[['w', 'Warm'], ['c', 'Cold']], value='c') }}
{{ select('team', 'Team', options=[{value: 1, label: 'Red'}, {value: 2, label: 'Blue'}], value=2) }}`,
  select_multiple: `{{ select('roles', 'Roles', options={admin: 'Admin', editor: 'Editor', viewer: 'Viewer'}, multiple=true, value=['admin']) }}`,
  select_tools: `{{ select('city', 'City', options=['Berlin', 'Paris'], searchable=true) }}{{ select('user', 'User', options_url='/users/options', value='u7') }}{{ select('label', 'Label', options=['bug'], editable=true, value='idea') }}`,
  checkbox: `{{ checkbox('terms', 'I accept the terms') }}{{ checkbox('news', 'Newsletter', value=true) }}{{ checkbox('dark', 'Dark mode', switch=true, value=true) }}`,
  radio: `{{ radio('plan', 'Plan', options={free: 'Free', pro: 'Pro'}, value='free', required=true, hint='Change it later.') }}`,
  checkbox_list: `{{ checkbox_list('days', 'Days', options={mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday'}, value=['tue']) }}`,
  toggle_buttons: `{{ toggle_buttons('view', 'View', options={list: 'List', grid: 'Grid'}, value='grid') }}{{ toggle_buttons('tags', 'Tags', options=['a', 'b'], multiple=true, value=['a', 'b']) }}`,
  show_when: `{% call show_when('kind', 'company') %}{{ input('vat', 'VAT number') }}{% endcall %}{% call show_when('kind', ['ngo', 'school']) %}<p>either</p>{% endcall %}`,
  date_picker: `{{ date_picker('day', 'Delivery day', min='2026-01-01', max='2026-12-31', disabled_dates=['2026-12-25', '2026-12-26'], closed_weekdays=[0, 6], value='2026-05-04') }}{{ date_picker('plain_day', 'Plain day') }}`,
  file: `{{ file('avatar', 'Avatar', accept='image/*', preview=true) }}{{ file('cv', 'CV', accept='.pdf', value='/storage/cv.pdf') }}{{ file('photo', 'Photo', preview=true, value='/storage/p.png') }}`,
  tags_input: `{{ tags_input('tags', 'Tags', value=['red', 'green'], suggestions=['blue']) }}`,
  repeater: `{{ repeater('items', 'Items', columns=[{name: 'name', label: 'Name', required: true}, {name: 'qty', label: 'Quantity', type: 'number'}, {name: 'unit', label: 'Unit', options: ['kg', 'l']}], value=[{name: 'Tea', qty: 2, unit: 'kg'}, {name: 'Milk', qty: 1, unit: 'l'}], add_label='Add an item') }}`,
  repeater_empty: `{{ repeater('items', 'Items', columns=[{name: 'name', label: 'Name'}], min_rows=2) }}`,
  key_value: `{{ key_value('meta', 'Metadata', value={color: 'red', size: 'L'}) }}`,
  form_grid: `{% call form_grid(3) %}{{ input('first', 'First name') }}{{ input('last', 'Last name') }}{% endcall %}`,
  form_errors: `{{ form_errors() }}{{ form_errors(bag='profile') }}`,
  required: `{{ input('name', 'Name', required=true) }}{{ select('c', 'C', options=['a'], required=true) }}{{ checkbox('ok', 'OK', required=true) }}`,
  hint: `{{ input('name', 'Name', hint='As on your passport.') }}`,
  prefix: `{{ input('price', 'Price', prefix='€', type='number') }}`,
  attrs: `{{ input('q', 'Search', attrs={'data-role': 'a"b<c', onclick: 'steal()', OnFocus: 'x()', style: 'color:red', autofocus: true, inputmode: 'search', hidden: false, 'bad name': 'x'}) }}`,
  readonly: `{{ input('code', 'Code', readonly=true, value='ABC') }}{{ select('plan', 'Plan', options={a: 'A', b: 'B'}, readonly=true, value='b') }}{{ checkbox('ok', 'OK', readonly=true, value=true) }}{{ radio('r', 'R', options=['x', 'y'], readonly=true, value='y') }}`,
  copyable: `{{ input('token', 'API token', copyable=true, value='t0k3n') }}`,
  hide_label: `{{ input('search', 'Search the shop', hide_label=true) }}{{ radio('r', 'Choice', options=['x'], hide_label=true) }}`,
  bag: `{{ input('email', 'Email', bag='profile', value='saved@example.com') }}{{ input('name', 'Name', value='Saved name') }}`,
  value: `{{ input('city', 'City', value='Paris') }}{{ textarea('note', 'Note', value='kept') }}`,
  id: `{{ input('email', 'Email', id='login-email') }}{{ input('email', 'Email', id='register-email') }}`,
  disabled: `{{ input('a', 'A', disabled=true) }}{{ select('b', 'B', options=['x'], disabled=true) }}{{ radio('c', 'C', options=['x'], disabled=true) }}`,
};

function viewsApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/v/{name}', (ctx) => View.make(`ui/${ctx.params.string('name')}.html`))
    // A failed submit, as ctx.valid() leaves it: the input and the errors flashed for the next page.
    .post('/flash', (ctx) => {
      const body = ctx.body() as { input?: Record<string, unknown>; errors?: Record<string, string[]>; bag?: string };
      ctx.session.flashInput(body.input ?? {});
      ctx.session.flashErrors(body.errors ?? {}, body.bag ?? 'default');
      return text('flashed');
    });
  return createDefaultApp(options).module({ name: 'ui-fields-test', routes });
}

const dir = useTempDir('fw-ui-fields-');
let server: TestServer;

beforeAll(async () => {
  for (const [name, body] of Object.entries(VIEWS)) {
    const file = join(dir(), 'resources/views/ui', `${name}.html`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, IMPORT + body);
  }
  const app = TestApp.create({
    environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, APP_NAME: 'Fields', APP_DEBUG: 'true' },
    root: dir(),
    build: viewsApp,
  });
  server = await app.serve();
});
afterAll(() => server.stop());

interface Failed {
  input?: Record<string, unknown>;
  errors?: Record<string, string[]>;
  bag?: string;
}

/** The page of one view; after a failed submit when `failed` is given. */
async function show(view: string, failed?: Failed): Promise<string> {
  const client = server.client();
  if (failed !== undefined) expect((await client.post('/flash', { json: failed })).status).toBe(200);
  const response = await client.get(`/v/${view}`);
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  return response.text;
}

/** The opening tag of the element with this id. */
function tag(html: string, id: string): string {
  const found = new RegExp(`<[a-z]+\\b[^>]*\\sid="${id}"[^>]*>`, 'u').exec(html)?.[0];
  if (found === undefined) throw new Error(`no element with id="${id}" in:\n${html}`);
  return found;
}

/** An attribute's value in an opening tag: text, true for a bare attribute, null when absent. */
function attr(openTag: string, name: string): string | true | null {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s>/])`, 'u').exec(openTag);
  if (match === null) return null;
  return match[1] ?? true;
}

/** The text of the label for this id. */
function labelOf(html: string, id: string): string | undefined {
  return new RegExp(`<label for="${id}"[^>]*>(.*?)</label>`, 'su').exec(html)?.[1]?.replace(/<[^>]+>/gu, '');
}

/** The opening tags of every element matching a name attribute. */
function named(html: string, name: string): string[] {
  const escaped = name.replace(/[[\]]/gu, (bracket) => `\\${bracket}`);
  return html.match(new RegExp(`<(?:input|select|textarea)\\b[^>]*\\sname="${escaped}"[^>]*>`, 'gu')) ?? [];
}

describe('input', () => {
  it('renders a labelled input with its value, and refills from old input with the error tied to it', async () => {
    const fresh = await show('input');
    expect(labelOf(fresh, 'fw-email')).toBe('Email');
    const email = tag(fresh, 'fw-email');
    expect(attr(email, 'name')).toBe('email');
    expect(attr(email, 'type')).toBe('email');
    expect(attr(email, 'value')).toBe('ada@example.com');
    expect(attr(email, 'aria-invalid')).toBeNull();

    const failed = await show('input', { input: { email: 'typo@', password: 'secret' }, errors: { email: ['The email must be a valid email address.'], password: ['Too short.'] } });
    const refilled = tag(failed, 'fw-email');
    expect(attr(refilled, 'value')).toBe('typo@');
    expect(attr(refilled, 'aria-invalid')).toBe('true');
    expect(attr(refilled, 'aria-describedby')).toBe('fw-email-error');
    expect(tag(failed, 'fw-email-error')).toContain('class="fw-error"');
    expect(failed).toContain('>The email must be a valid email address.</p>');
    // A password is never printed back, not even one the session kept.
    expect(attr(tag(failed, 'fw-password'), 'value')).toBeNull();
    expect(attr(tag(failed, 'fw-password'), 'aria-describedby')).toBe('fw-password-error');
  });
});

describe('textarea', () => {
  it('shows its text escaped, and the old input after a failed submit', async () => {
    const fresh = await show('textarea');
    expect(fresh).toContain('>&lt;b&gt;bold&lt;/b&gt; &amp; more</textarea>');
    expect(attr(tag(fresh, 'fw-bio'), 'rows')).toBe('6');
    expect(labelOf(fresh, 'fw-bio')).toBe('About you');
    const failed = await show('textarea', { input: { bio: 'retyped' }, errors: { bio: ['Too long.'] } });
    expect(failed).toContain('>retyped</textarea>');
    expect(attr(tag(failed, 'fw-bio'), 'aria-invalid')).toBe('true');
  });
});

describe('select', () => {
  it('takes options as a dict, values, pairs or {value, label}, and selects the value', async () => {
    const page = await show('select');
    expect(page).toContain('<option value="">Choose…</option><option value="de">Germany</option><option value="fr" selected>France</option>');
    expect(page).toContain('<option value="S">S</option><option value="M">M</option><option value="L">L</option>');
    expect(page).toContain('<option value="w">Warm</option><option value="c" selected>Cold</option>');
    expect(page).toContain('<option value="1">Red</option><option value="2" selected>Blue</option>');
    expect(labelOf(page, 'fw-country')).toBe('Country');
  });

  it('selects the old input after a failed submit', async () => {
    const page = await show('select', { input: { country: 'de' }, errors: { country: ['Pick another.'] } });
    expect(page).toContain('<option value="de" selected>Germany</option><option value="fr">France</option>');
    expect(attr(tag(page, 'fw-country'), 'aria-invalid')).toBe('true');
  });

  it('with multiple, selects every chosen value and sends the name repeated', async () => {
    const fresh = await show('select_multiple');
    expect(attr(tag(fresh, 'fw-roles'), 'multiple')).toBe(true);
    expect(fresh).toContain('<option value="admin" selected>Admin</option><option value="editor">Editor</option>');
    const failed = await show('select_multiple', { input: { roles: ['editor', 'viewer'] }, errors: { roles: ['Too many.'] } });
    expect(failed).toContain('<option value="admin">Admin</option><option value="editor" selected>Editor</option><option value="viewer" selected>Viewer</option>');
    const single = await show('select_multiple', { input: { roles: 'viewer' }, errors: { roles: ['x'] } });
    expect(single).toContain('<option value="viewer" selected>Viewer</option>');
  });

  it('searchable, options_url and editable add tools for the script, and stay a plain select without it', async () => {
    const page = await show('select_tools');
    const search = /<input type="search" class="fw-select-search"[^>]*aria-controls="fw-city"[^>]*>/u.exec(page)?.[0] ?? '';
    expect(attr(search, 'aria-label')).toBe('Search the options of City');
    expect(tag(page, 'fw-city')).toContain('data-fw-select');
    expect(page).toMatch(/data-fw-select-tools="fw-city" hidden>/u);
    expect(page).toContain('data-fw-options-url="/users/options"');
    // A value not among the options (one fetched, or typed in) stays chosen.
    expect(page).toContain('<option value="u7" selected>u7</option>');
    expect(page).toContain('<option value="bug">bug</option><option value="idea" selected>idea</option>');
    expect(page).toMatch(/<input type="text" class="fw-select-new" aria-label="New option for Label">/u);
  });
});

describe('checkbox', () => {
  it('is ticked by value, unticked after a failed submit that did not send it, ticked when it did', async () => {
    const fresh = await show('checkbox');
    expect(attr(tag(fresh, 'fw-terms'), 'checked')).toBeNull();
    expect(attr(tag(fresh, 'fw-news'), 'checked')).toBe(true);
    expect(attr(tag(fresh, 'fw-terms'), 'value')).toBe('1');
    expect(labelOf(fresh, 'fw-terms')).toBe('I accept the terms');
    const failed = await show('checkbox', { input: { terms: '1' }, errors: { terms: ['Accept them.'] } });
    expect(attr(tag(failed, 'fw-terms'), 'checked')).toBe(true);
    expect(attr(tag(failed, 'fw-news'), 'checked')).toBeNull();
    expect(attr(tag(failed, 'fw-terms'), 'aria-describedby')).toBe('fw-terms-error');
  });

  it('as a switch, has role="switch"', async () => {
    const page = await show('checkbox');
    expect(attr(tag(page, 'fw-dark'), 'role')).toBe('switch');
    expect(attr(tag(page, 'fw-dark'), 'checked')).toBe(true);
    expect(attr(tag(page, 'fw-terms'), 'role')).toBeNull();
  });
});

describe('radio', () => {
  it('is a fieldset with a legend, each option labelled, the value checked, the error on every radio', async () => {
    const fresh = await show('radio');
    expect(fresh).toMatch(/<fieldset class="fw-field fw-fieldset fw-field-radio" id="fw-plan">\s*<legend>Plan<span class="fw-required" aria-hidden="true">\*<\/span><\/legend>/u);
    expect(labelOf(fresh, 'fw-plan-0')).toBe('Free');
    expect(attr(tag(fresh, 'fw-plan-0'), 'checked')).toBe(true);
    expect(attr(tag(fresh, 'fw-plan-0'), 'required')).toBe(true);
    expect(attr(tag(fresh, 'fw-plan-1'), 'aria-describedby')).toBe('fw-plan-hint');
    const failed = await show('radio', { input: { plan: 'pro' }, errors: { plan: ['Pro is full.'] } });
    expect(attr(tag(failed, 'fw-plan-0'), 'checked')).toBeNull();
    expect(attr(tag(failed, 'fw-plan-1'), 'checked')).toBe(true);
    for (const id of ['fw-plan-0', 'fw-plan-1']) {
      expect(attr(tag(failed, id), 'aria-invalid')).toBe('true');
      expect(attr(tag(failed, id), 'aria-describedby')).toBe('fw-plan-hint fw-plan-error');
    }
  });
});

describe('checkbox_list', () => {
  it('sends the name repeated and ticks the chosen values, then the old ones', async () => {
    const fresh = await show('checkbox_list');
    expect(named(fresh, 'days')).toHaveLength(3);
    expect(attr(tag(fresh, 'fw-days-1'), 'checked')).toBe(true);
    expect(labelOf(fresh, 'fw-days-2')).toBe('Wednesday');
    const failed = await show('checkbox_list', { input: { days: ['mon', 'wed'] }, errors: { days: ['Two at most.'] } });
    expect(attr(tag(failed, 'fw-days-0'), 'checked')).toBe(true);
    expect(attr(tag(failed, 'fw-days-1'), 'checked')).toBeNull();
    expect(attr(tag(failed, 'fw-days-2'), 'checked')).toBe(true);
    expect(attr(tag(failed, 'fw-days-2'), 'aria-invalid')).toBe('true');
    // None ticked after a failed submit: the old input has no `days`, so nothing is checked.
    const none = await show('checkbox_list', { input: { other: 'x' }, errors: { days: ['Pick one.'] } });
    expect(named(none, 'days').filter((input) => input.includes(' checked'))).toEqual([]);
  });
});

describe('toggle_buttons', () => {
  it('are radios drawn as buttons, or checkboxes with multiple', async () => {
    const page = await show('toggle_buttons');
    expect(page).toContain('<div class="fw-toggle-buttons">');
    expect(attr(tag(page, 'fw-view-1'), 'type')).toBe('radio');
    expect(attr(tag(page, 'fw-view-1'), 'checked')).toBe(true);
    expect(labelOf(page, 'fw-view-0')).toBe('List');
    expect(attr(tag(page, 'fw-tags-0'), 'type')).toBe('checkbox');
    expect(named(page, 'tags').every((input) => input.includes(' checked'))).toBe(true);
  });
});

describe('show_when', () => {
  it('wraps its content with the field and value the script watches; shown without JavaScript', async () => {
    const page = await show('show_when');
    expect(page).toMatch(/<fieldset class="fw-show-when" data-fw-show-when="kind" data-fw-show-value="company">.*id="fw-vat"/su);
    expect(page).toContain('data-fw-show-value="ngo\nschool"><p>either</p></fieldset>');
    expect(page).not.toMatch(/fw-show-when"[^>]*hidden/u);
  });
});

describe('date_picker', () => {
  it('is a native date input with min, max, the refused dates and weekdays, and says the closed days', async () => {
    const page = await show('date_picker');
    const day = tag(page, 'fw-day');
    expect(attr(day, 'type')).toBe('date');
    expect(attr(day, 'value')).toBe('2026-05-04');
    expect(attr(day, 'min')).toBe('2026-01-01');
    expect(attr(day, 'max')).toBe('2026-12-31');
    expect(attr(day, 'data-fw-disabled-dates')).toBe('2026-12-25,2026-12-26');
    expect(attr(day, 'data-fw-closed-weekdays')).toBe('0,6');
    expect(attr(day, 'data-fw-date-message')).toBe('This date cannot be chosen.');
    expect(attr(day, 'aria-describedby')).toBe('fw-day-hint');
    expect(page).toContain('<p class="fw-hint" id="fw-day-hint">Closed on Sunday, Saturday.</p>');
    expect(attr(tag(page, 'fw-plain_day'), 'data-fw-date')).toBeNull();
    const failed = await show('date_picker', { input: { day: '2026-12-25' }, errors: { day: ['We are closed that day.'] } });
    expect(attr(tag(failed, 'fw-day'), 'value')).toBe('2026-12-25');
    expect(attr(tag(failed, 'fw-day'), 'aria-describedby')).toBe('fw-day-hint fw-day-error');
  });
});

describe('file', () => {
  it('limits the types, has a preview for an image, shows the current one, and is never refilled', async () => {
    const page = await show('file', { input: { avatar: 'C:\\fakepath\\me.png' }, errors: { avatar: ['Too big.'] } });
    const avatar = tag(page, 'fw-avatar');
    expect(attr(avatar, 'type')).toBe('file');
    expect(attr(avatar, 'accept')).toBe('image/*');
    expect(attr(avatar, 'value')).toBeNull();
    expect(attr(avatar, 'data-fw-preview')).toBe('fw-avatar-preview');
    expect(attr(avatar, 'aria-invalid')).toBe('true');
    expect(attr(tag(page, 'fw-avatar-preview'), 'hidden')).toBe(true);
    expect(page).toContain('alt="Preview of the image chosen for Avatar"');
    expect(attr(tag(page, 'fw-cv'), 'accept')).toBe('.pdf');
    expect(attr(tag(page, 'fw-photo-preview'), 'hidden')).toBeNull();
    expect(page).toContain('<img src="/storage/p.png"');
  });
});

describe('tags_input', () => {
  it('is a text input holding one comma list, with suggestions, refilled from old input', async () => {
    const fresh = await show('tags_input');
    const tags = tag(fresh, 'fw-tags');
    expect(attr(tags, 'value')).toBe('red, green');
    expect(attr(tags, 'data-fw-tags')).toBe(true);
    expect(attr(tags, 'list')).toBe('fw-tags-suggestions');
    expect(fresh).toContain('<datalist id="fw-tags-suggestions"><option value="blue"></option></datalist>');
    expect(fresh).toContain('<p class="fw-hint" id="fw-tags-hint">Separate tags with commas.</p>');
    const failed = await show('tags_input', { input: { tags: 'red, b@d' }, errors: { tags: ['Letters only.'] } });
    expect(attr(tag(failed, 'fw-tags'), 'value')).toBe('red, b@d');
    expect(attr(tag(failed, 'fw-tags'), 'aria-describedby')).toBe('fw-tags-hint fw-tags-error');
  });
});

describe('repeater', () => {
  it('renders a row per value, named items[i][field], with a template row for the script', async () => {
    const page = await show('repeater');
    expect(attr(tag(page, 'fw-items-0-name'), 'name')).toBe('items[0][name]');
    expect(attr(tag(page, 'fw-items-0-name'), 'value')).toBe('Tea');
    expect(attr(tag(page, 'fw-items-0-name'), 'required')).toBe(true);
    expect(attr(tag(page, 'fw-items-1-qty'), 'value')).toBe('1');
    expect(attr(tag(page, 'fw-items-1-qty'), 'type')).toBe('number');
    expect(page).toContain('<option value="l" selected>l</option>');
    expect(labelOf(page, 'fw-items-1-name')).toBe('Name*');
    expect(page).toContain('name="items[__INDEX__][name]"');
    expect(page).toMatch(/<template data-fw-row-template>/u);
    expect(page).toMatch(/<button type="button" class="fw-repeater-add[^"]*" hidden>Add an item<\/button>/u);
    expect(page).toContain('aria-label="Remove row 2" hidden>Remove</button>');
    expect(page).not.toContain('fw-items-2-name');
  });

  it('after a failed submit shows the rows sent (flat bracket names) with each row field\'s error', async () => {
    const page = await show('repeater', {
      input: { 'items[0][name]': 'Coffee', 'items[0][qty]': '3', 'items[1][name]': '', 'items[1][qty]': '5', 'items[2][name]': 'Sugar' },
      errors: { 'items.1.name': ['The name is required.'] },
    });
    expect(attr(tag(page, 'fw-items-0-name'), 'value')).toBe('Coffee');
    expect(attr(tag(page, 'fw-items-1-qty'), 'value')).toBe('5');
    expect(attr(tag(page, 'fw-items-2-name'), 'value')).toBe('Sugar');
    expect(page).not.toContain('id="fw-items-3-name"');
    const invalid = tag(page, 'fw-items-1-name');
    expect(attr(invalid, 'aria-invalid')).toBe('true');
    expect(attr(invalid, 'aria-describedby')).toBe('fw-items-1-name-error');
    expect(page).toContain('<p class="fw-error" id="fw-items-1-name-error">The name is required.</p>');
  });

  it('with no value, shows min_rows empty rows so a visitor without JavaScript can fill them', async () => {
    const page = await show('repeater_empty');
    expect(attr(tag(page, 'fw-items-1-name'), 'value')).toBeNull();
    expect(page).not.toContain('id="fw-items-2-name"');
  });
});

describe('key_value', () => {
  it('renders a dict as rows of key and value named meta[i][key] / meta[i][value]', async () => {
    const page = await show('key_value');
    expect(attr(tag(page, 'fw-meta-0-key'), 'name')).toBe('meta[0][key]');
    expect(attr(tag(page, 'fw-meta-0-key'), 'value')).toBe('color');
    expect(attr(tag(page, 'fw-meta-1-value'), 'value')).toBe('L');
    expect(labelOf(page, 'fw-meta-1-key')).toBe('Key');
    expect(page).toMatch(/<legend>Metadata<\/legend>/u);
    const failed = await show('key_value', { input: { 'meta[0][key]': 'colour', 'meta[0][value]': '' }, errors: { 'meta.0.value': ['A value is needed.'] } });
    expect(attr(tag(failed, 'fw-meta-0-key'), 'value')).toBe('colour');
    expect(attr(tag(failed, 'fw-meta-0-value'), 'aria-invalid')).toBe('true');
    expect(failed).not.toContain('id="fw-meta-1-key"');
  });
});

describe('form_grid', () => {
  it('lays its fields in n columns', async () => {
    const page = await show('form_grid');
    expect(page).toMatch(/<div class="fw-form-grid" data-fw-columns="3"><div class="fw-field fw-field-input">/u);
    expect(page).toContain('id="fw-last"');
  });
});

describe('form_errors', () => {
  it('lists every message of its bag, each a link to its field, and nothing without errors', async () => {
    expect(await show('form_errors')).not.toContain('fw-form-errors');
    const page = await show('form_errors', { input: {}, errors: { email: ['Email is taken.'], 'items.1.name': ['Name is required.'] } });
    expect(page).toMatch(/<div class="fw-form-errors" role="alert" tabindex="-1" id="fw-form-errors">/u);
    expect(page).toContain('2 fields need your attention:');
    expect(page).toContain('<a href="#fw-email">Email is taken.</a>');
    expect(page).toContain('<a href="#fw-items-1-name">Name is required.</a>');
    expect(page).not.toContain('id="fw-form-errors-profile"');
    const profile = await show('form_errors', { input: {}, errors: { name: ['Name is required.'] }, bag: 'profile' });
    expect(profile).toContain('id="fw-form-errors-profile"');
    expect(profile).toContain('1 field needs your attention:');
  });
});

describe('common field parameters', () => {
  it('required: the attribute, and a mark beside the label hidden from screen readers', async () => {
    const page = await show('required');
    expect(attr(tag(page, 'fw-name'), 'required')).toBe(true);
    expect(attr(tag(page, 'fw-c'), 'required')).toBe(true);
    expect(attr(tag(page, 'fw-ok'), 'required')).toBe(true);
    expect(page).toContain('<label for="fw-name">Name<span class="fw-required" aria-hidden="true">*</span></label>');
  });

  it('hint: a paragraph the control is described by, before the error', async () => {
    const page = await show('hint', { input: { name: 'x' }, errors: { name: ['Too short.'] } });
    expect(page).toContain('<p class="fw-hint" id="fw-name-hint">As on your passport.</p><p class="fw-error" id="fw-name-error">Too short.</p>');
    expect(attr(tag(page, 'fw-name'), 'aria-describedby')).toBe('fw-name-hint fw-name-error');
  });

  it('prefix: shown before the control and part of its description', async () => {
    const page = await show('prefix');
    expect(page).toContain('<span class="fw-prefix" id="fw-price-prefix">€</span><input name="price" type="number"');
    expect(attr(tag(page, 'fw-price'), 'aria-describedby')).toBe('fw-price-prefix');
  });

  it('attrs: extra attributes escaped; event handlers, style and bad names dropped', async () => {
    const control = tag(await show('attrs'), 'fw-q');
    expect(attr(control, 'data-role')).toBe('a&quot;b&lt;c');
    expect(attr(control, 'autofocus')).toBe(true);
    expect(attr(control, 'inputmode')).toBe('search');
    expect(attr(control, 'hidden')).toBeNull();
    expect(control).not.toMatch(/onclick|onfocus|style|steal|bad/iu);
  });

  it('readonly: text stays editable-looking but read-only; select, checkbox and radio are disabled and send their value by hidden inputs', async () => {
    const page = await show('readonly');
    expect(attr(tag(page, 'fw-code'), 'readonly')).toBe(true);
    expect(attr(tag(page, 'fw-code'), 'value')).toBe('ABC');
    expect(attr(tag(page, 'fw-plan'), 'disabled')).toBe(true);
    expect(page).toContain('<input type="hidden" name="plan" value="b">');
    expect(attr(tag(page, 'fw-ok'), 'disabled')).toBe(true);
    expect(page).toContain('<input type="hidden" name="ok" value="1">');
    expect(attr(tag(page, 'fw-r-1'), 'disabled')).toBe(true);
    expect(page).toContain('<input type="hidden" name="r" value="y">');
    expect(page).not.toContain('<input type="hidden" name="r" value="x">');
  });

  it('copyable: a copy button for the script, naming the control, hidden until the script shows it', async () => {
    const page = await show('copyable');
    expect(page).toContain('<button type="button" class="fw-copy" data-fw-copy="fw-token" data-fw-copied="Copied" hidden>Copy</button>');
  });

  it('hide_label: the label or legend is only for screen readers, still tied to the control', async () => {
    const page = await show('hide_label');
    expect(page).toContain('<label for="fw-search" class="fw-visually-hidden">Search the shop</label>');
    expect(page).toContain('<legend class="fw-visually-hidden">Choice</legend>');
  });

  it('bag: errors come from the named bag, and old input refills only the form whose bag failed', async () => {
    const page = await show('bag', { input: { email: 'new@example.com', name: 'New name' }, errors: { email: ['Taken.'] }, bag: 'profile' });
    expect(attr(tag(page, 'fw-email'), 'aria-invalid')).toBe('true');
    expect(attr(tag(page, 'fw-email'), 'value')).toBe('new@example.com');
    expect(page).toContain('>Taken.</p>');

    const other = await show('bag', { input: { email: 'new@example.com', name: 'New name' }, errors: { email: ['Taken.'] } });
    // The default bag failed: the profile form's field keeps its value and shows no error.
    expect(attr(tag(other, 'fw-email'), 'value')).toBe('saved@example.com');
    expect(attr(tag(other, 'fw-email'), 'aria-invalid')).toBeNull();
    expect(attr(tag(other, 'fw-name'), 'value')).toBe('New name');
  });

  it('value: shown until a failed submit, whose old input wins (also when it is empty)', async () => {
    const fresh = await show('value');
    expect(attr(tag(fresh, 'fw-city'), 'value')).toBe('Paris');
    expect(fresh).toContain('>kept</textarea>');
    const failed = await show('value', { input: { city: 'Lyon', note: '' }, errors: { city: ['No.'] } });
    expect(attr(tag(failed, 'fw-city'), 'value')).toBe('Lyon');
    expect(failed).toContain('id="fw-note"></textarea>');
  });

  it('id: tells apart two fields of one name, for the label, hint and error', async () => {
    const page = await show('id', { input: { email: 'x' }, errors: { email: ['Bad.'] } });
    expect(labelOf(page, 'login-email')).toBe('Email');
    expect(labelOf(page, 'register-email')).toBe('Email');
    expect(attr(tag(page, 'login-email'), 'aria-describedby')).toBe('login-email-error');
    expect(tag(page, 'register-email-error')).toContain('fw-error');
  });

  it('disabled: the control (or the whole group) is disabled', async () => {
    const page = await show('disabled');
    expect(attr(tag(page, 'fw-a'), 'disabled')).toBe(true);
    expect(attr(tag(page, 'fw-b'), 'disabled')).toBe(true);
    expect(attr(tag(page, 'fw-c'), 'disabled')).toBe(true);
    expect(attr(tag(page, 'fw-c-0'), 'disabled')).toBe(true);
  });
});

describe('kit texts', () => {
  it('has every ui.fields key in English and German', () => {
    const en = JSON.parse(readFileSync(join(FRAMEWORK_TEMPLATES, 'lang/en.json'), 'utf8')) as Record<string, string>;
    const de = JSON.parse(readFileSync(join(FRAMEWORK_TEMPLATES, 'lang/de.json'), 'utf8')) as Record<string, string>;
    const used = new Set([...readFileSync(join(FRAMEWORK_TEMPLATES, 'fw/ui/fields.html'), 'utf8').matchAll(/t\('(ui\.fields\.[a-z_.]+)'/gu)].map((match) => match[1]));
    expect(used.size).toBeGreaterThan(10);
    for (const key of used) {
      if (key === undefined || key === 'ui.fields.weekday.' || key === 'ui.fields.form_errors') continue;
      expect(en[key], key).toBeTypeOf('string');
      expect(de[key], key).toBeTypeOf('string');
    }
    for (const day of [0, 1, 2, 3, 4, 5, 6]) expect(de[`ui.fields.weekday.${day}`]).toBeTypeOf('string');
    expect(de['ui.fields.form_errors.other']).toBeTypeOf('string');
  });
});
