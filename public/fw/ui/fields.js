/* global document, location, navigator, fetch, setTimeout, clearTimeout, CSS, Event, Option, FileReader, URL */
// The UI kit's fields, improved (templates/fw/ui/fields.html). Every field works without this
// file; it adds: a filter box and options fetched from options_url for a select, typing a new
// option, tag chips, repeater and key_value rows added and removed, show_when, refused dates,
// an image preview and copy buttons. Event delegation on document; content swapped in by htmx
// is set up on htmx:load. No inline styles or handlers: the CSP stays strict.

const $$ = (root, selector) => [...(root.querySelectorAll?.(selector) ?? [])];
const say = (text, values) => text.replace(/:(\w+)/g, (whole, key) => (key in values ? values[key] : whole));

function init(root) {
  for (const hidden of $$(root, '[data-fw-select-tools], .fw-copy, .fw-repeater-add, .fw-repeater-remove')) hidden.hidden = false;
  for (const input of $$(root, 'input[data-fw-tags]')) tags(input);
  for (const box of $$(root, '[data-fw-show-when]')) showWhen(box);
}

// --- select: filter, options_url, editable ------------------------------------------------

const selectOf = (tool) => document.getElementById(tool.closest('[data-fw-select-tools]').dataset.fwSelectTools);
const timers = new WeakMap();

function filter(search) {
  const select = selectOf(search);
  const term = search.value.trim().toLowerCase();
  let shown = 0;
  for (const option of select.options) {
    const match = option.value === '' || option.selected || option.text.toLowerCase().includes(term);
    option.hidden = !match;
    if (match && option.value !== '') shown++;
  }
  status(search, shown === 0 ? search.dataset.fwNoResults : '');
}

function status(tool, text) {
  const line = tool.closest('[data-fw-select-tools]').querySelector('.fw-select-status');
  if (line) line.textContent = text;
}

async function fetchOptions(search) {
  const select = selectOf(search);
  const url = new URL(search.dataset.fwOptionsUrl, location.href);
  url.searchParams.set('q', search.value.trim());
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) return;
    const found = await response.json();
    for (const option of [...select.options]) if (!option.selected && option.value !== '') option.remove();
    const chosen = new Set([...select.selectedOptions].map((option) => option.value));
    for (const item of found) {
      const value = String(item.value ?? item);
      if (!chosen.has(value)) select.add(new Option(String(item.label ?? value), value));
    }
    status(search, found.length === 0 ? search.dataset.fwNoResults : '');
  } catch {
    // Offline or refused: the select keeps the options it has.
  }
}

function addOption(tool) {
  const box = tool.closest('[data-fw-select-tools]').querySelector('.fw-select-new');
  const text = box.value.trim();
  if (text === '') return;
  const select = selectOf(tool);
  const existing = [...select.options].find((option) => option.value === text);
  const option = existing ?? new Option(text, text);
  if (!existing) select.add(option);
  if (!select.multiple) select.value = text;
  option.selected = true;
  box.value = '';
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

// --- tags ------------------------------------------------------------------------------------

function tags(input) {
  if (input.dataset.fwTagsReady) return;
  input.dataset.fwTagsReady = '1';
  const hidden = Object.assign(document.createElement('input'), { type: 'hidden', name: input.name, value: input.value });
  const list = Object.assign(document.createElement('ul'), { className: 'fw-tags' });
  input.removeAttribute('name');
  input.value = '';
  // The typing box is empty once its tags are chips: the server checks that some were given.
  if (input.required) {
    input.required = false;
    input.setAttribute('aria-required', 'true');
  }
  input.before(list);
  input.after(hidden);
  input.fwTags = { hidden, list };
  for (const tag of split(hidden.value)) chip(input, tag);
}

const split = (text) => text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');

function chip(input, tag) {
  const { list } = input.fwTags;
  if ([...list.children].some((item) => item.dataset.tag === tag)) return;
  const item = Object.assign(document.createElement('li'), { className: 'fw-tag' });
  item.dataset.tag = tag;
  const label = Object.assign(document.createElement('span'), { textContent: tag });
  const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'fw-tag-remove', textContent: '×' });
  remove.setAttribute('aria-label', say(input.dataset.fwRemove, { tag }));
  item.append(label, remove);
  list.append(item);
  sync(input);
}

function sync(input) {
  input.fwTags.hidden.value = [...input.fwTags.list.children].map((item) => item.dataset.tag).join(', ');
}

function takeTyped(input) {
  for (const tag of split(input.value)) chip(input, tag);
  input.value = '';
}

// --- repeater and key_value ------------------------------------------------------------------

function renumber(rows) {
  const group = rows.closest('fieldset');
  const name = rows.dataset.fwRepeater;
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const nameAt = new RegExp(`^${escaped(name)}\\[[^\\]]*\\]`);
  const idAt = new RegExp(`(^|\\s)${escaped(group.id)}-[^-\\s]+-`, 'g');
  [...rows.children].forEach((row, index) => {
    for (const element of $$(row, '[name], [id], [for], [aria-describedby]')) {
      if (element.name) element.name = element.name.replace(nameAt, `${name}[${index}]`);
      for (const attribute of ['id', 'for', 'aria-describedby']) {
        const value = element.getAttribute(attribute);
        if (value) element.setAttribute(attribute, value.replace(idAt, `$1${group.id}-${index}-`));
      }
    }
    const remove = row.querySelector('.fw-repeater-remove');
    remove.setAttribute('aria-label', say(remove.dataset.fwRemoveLabel, { n: index + 1 }));
  });
}

function addRow(button) {
  const group = button.closest('fieldset');
  const rows = group.querySelector('[data-fw-repeater]');
  if (rows.children.length >= Number(rows.dataset.fwMaxRows || 100)) return;
  const row = group.querySelector('template[data-fw-row-template]').content.firstElementChild.cloneNode(true);
  rows.append(row);
  renumber(rows);
  init(row);
  row.querySelector('input, select, textarea')?.focus();
}

function removeRow(button) {
  const row = button.closest('[data-fw-row]');
  const rows = row.parentElement;
  const next = row.nextElementSibling ?? row.previousElementSibling;
  row.remove();
  renumber(rows);
  (next?.querySelector('.fw-repeater-remove') ?? rows.closest('fieldset').querySelector('.fw-repeater-add')).focus();
}

// --- show_when -------------------------------------------------------------------------------

function valuesOf(scope, name) {
  const values = [];
  for (const control of $$(scope, `[name="${CSS.escape(name)}"]`)) {
    if (control.type === 'checkbox' || control.type === 'radio') {
      if (control.checked) values.push(control.value);
    } else if (control.multiple) values.push(...[...control.selectedOptions].map((option) => option.value));
    else values.push(control.value);
  }
  return values;
}

function showWhen(box) {
  const scope = box.closest('form') ?? document;
  const wanted = box.dataset.fwShowValue.split('\n');
  const shown = valuesOf(scope, box.dataset.fwShowWhen).some((value) => wanted.includes(value));
  box.hidden = !shown;
  box.disabled = !shown;
}

// --- dates -----------------------------------------------------------------------------------

function checkDate(input) {
  const refused = input.dataset.fwDisabledDates.split(',');
  const closed = input.dataset.fwClosedWeekdays.split(',').filter((day) => day !== '').map(Number);
  const value = input.value;
  const weekday = value ? new Date(`${value}T00:00:00Z`).getUTCDay() : -1;
  const wrong = value !== '' && (refused.includes(value) || closed.includes(weekday));
  input.setCustomValidity(wrong ? input.dataset.fwDateMessage : '');
  if (wrong) input.reportValidity();
}

// --- file preview ----------------------------------------------------------------------------

function preview(input) {
  const box = document.getElementById(input.dataset.fwPreview);
  const image = box?.querySelector('img');
  const file = input.files?.[0];
  if (!image) return;
  if (!file || !file.type.startsWith('image/')) {
    box.hidden = true;
    return;
  }
  // A data: URL, not a blob: one: the CSP allows images from 'self' and data: only.
  const reader = new FileReader();
  reader.addEventListener('load', () => {
    image.src = reader.result;
    box.hidden = false;
  });
  reader.readAsDataURL(file);
}

// --- events ----------------------------------------------------------------------------------

document.addEventListener('click', (event) => {
  const target = event.target.closest?.('button');
  if (!target) return;
  if (target.matches('.fw-select-add')) addOption(target);
  else if (target.matches('.fw-repeater-add')) addRow(target);
  else if (target.matches('.fw-repeater-remove')) removeRow(target);
  else if (target.matches('.fw-tag-remove')) {
    const input = target.closest('.fw-control').querySelector('input[data-fw-tags]');
    target.closest('li').remove();
    sync(input);
    input.focus();
  } else if (target.matches('.fw-copy')) {
    const source = document.getElementById(target.dataset.fwCopy);
    navigator.clipboard?.writeText(source.value).then(() => {
      const text = target.textContent;
      target.textContent = target.dataset.fwCopied;
      setTimeout(() => (target.textContent = text), 2000);
    }, () => {});
  }
});

document.addEventListener('keydown', (event) => {
  const target = event.target;
  if (target.matches?.('input[data-fw-tags]')) {
    if (event.key === 'Enter' || event.key === ',') {
      if (target.value.trim() === '' && event.key === 'Enter') return;
      event.preventDefault();
      takeTyped(target);
    } else if (event.key === 'Backspace' && target.value === '') {
      target.fwTags.list.lastElementChild?.remove();
      sync(target);
    }
  } else if (target.matches?.('.fw-select-new') && event.key === 'Enter') {
    event.preventDefault();
    addOption(target);
  } else if (target.matches?.('.fw-select-search') && event.key === 'Enter') {
    event.preventDefault();
  }
});

document.addEventListener('input', (event) => {
  const target = event.target;
  if (target.matches?.('.fw-select-search')) {
    if (target.dataset.fwOptionsUrl) {
      clearTimeout(timers.get(target));
      timers.set(target, setTimeout(() => fetchOptions(target), 250));
    } else filter(target);
  }
});

document.addEventListener('change', (event) => {
  const target = event.target;
  if (target.matches?.('input[data-fw-date]')) checkDate(target);
  if (target.matches?.('input[data-fw-preview]')) preview(target);
  if (target.name) for (const box of $$(document, '[data-fw-show-when]')) if (box.dataset.fwShowWhen === target.name) showWhen(box);
});

document.addEventListener('focusout', (event) => {
  if (event.target.matches?.('input[data-fw-tags]')) takeTyped(event.target);
});

document.addEventListener('submit', (event) => {
  for (const input of $$(event.target, 'input[data-fw-tags]')) if (input.fwTags) takeTyped(input);
}, true);

document.addEventListener('htmx:load', (event) => init(event.target));
init(document);
