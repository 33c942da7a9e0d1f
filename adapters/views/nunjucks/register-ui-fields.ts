/**
 * `fw_field(name, p, many, options)`: the state every UI kit field works out before it draws
 * itself (templates/fw/ui/fields.html): its id, the path its errors and old input are under,
 * its error, its current value (old input of its bag, else `p.value`), the chosen values as
 * text, the aria-describedby list and the attributes its control shares (id, required,
 * disabled, aria-*, the escaped `attrs`). Written in the template it took a dozen `{% set %}`s
 * and filters per field; bench/ui-kit.bench.ts showed the kit's pages spent most of their time
 * there. The page's own `old()`, `error()`, `has_old()` and `errors_in()` are read from the
 * render context, so the session answers exactly as it does for a hand-written field.
 */
import nunjucks from 'nunjucks';
import type { Environment } from 'nunjucks';
import { choiceInputs } from './ui-choices.js';

interface RenderContext {
  lookup(name: string): unknown;
}

type Lookup = (...args: unknown[]) => unknown;

/** Attribute names `attrs` may add: plain names, no event handlers, no `style` (the CSP forbids both). */
const ATTRIBUTE_NAME = /^[a-z_:][-a-z0-9_:.]*$/u;

/** nunjucks' own autoescape, so an attribute reads the same as one the template printed. */
const nunjucksLib = (nunjucks as unknown as { lib: { escape: (text: string) => string } }).lib;
const escape = (text: string): string => nunjucksLib.escape(text);

/** `items[0][name]` → `items.0.name`, the validation's path; `tags[]` → `tags`. */
export function fieldPath(name: string): string {
  if (!name.includes('[')) return name;
  return name.replace(/\[\]/gu, '').replace(/\]\[/gu, '.').replace(/\[/gu, '.').replace(/\]/gu, '');
}

/** Attributes that take a URL: a script URL there runs on a click or a submit. */
const URL_ATTRIBUTE = /^(href|src|action|formaction|xlink:href|poster|cite|background|ping)$/u;
/** Schemes refused in a URL attribute, read as browsers read them (case and blanks ignored). */
const SCRIPT_URL = /^(javascript|vbscript|data):/u;

/**
 * The extra attributes of `attrs`, escaped; handlers, `style`, odd names and script URLs
 * (`javascript:`, `vbscript:`, `data:` in href, src, action, formaction…) are left out. Every
 * kit macro taking `attrs` prints them through this (`fw_attrs(attrs)` in templates).
 */
export function extraAttributes(attrs: unknown): string {
  if (typeof attrs !== 'object' || attrs === null) return '';
  let html = '';
  for (const [name, value] of Object.entries(attrs as Record<string, unknown>)) {
    const lowered = name.toLowerCase();
    if (name === '__keywords' || !ATTRIBUTE_NAME.test(lowered) || lowered.startsWith('on') || lowered === 'style') continue;
    if (value === false || value === null || value === undefined) continue;
    // eslint-disable-next-line no-control-regex -- browsers drop control characters and blanks before the scheme
    if (URL_ATTRIBUTE.test(lowered) && SCRIPT_URL.test(asText(value).replace(/[\u0000-\u0020]/gu, '').toLowerCase())) continue;
    html += value === true ? ` ${lowered}` : ` ${lowered}="${escape(asText(value))}"`;
  }
  return html;
}

function callable(context: RenderContext, name: string): Lookup | null {
  const value = context.lookup(name);
  return typeof value === 'function' ? (value as Lookup) : null;
}

/** Text, numbers and booleans as nunjucks prints them; anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A value printed as nunjucks would: escaped unless marked safe. */
function html(value: unknown): string {
  if (value instanceof nunjucks.runtime.SafeString) return String(value);
  return value === null || value === undefined ? '' : escape(asText(value));
}

export type FieldLayout = 'stacked' | 'check' | 'group';

export function registerUiFields(env: Environment): void {
  env.addGlobal('fw_choices', choiceInputs);
  env.addGlobal('fw_attrs', (attrs: unknown) => new nunjucks.runtime.SafeString(extraAttributes(attrs)));
  env.addGlobal('fw_field', function (this: RenderContext, kind: string, name: string, label: unknown, p: Record<string, unknown>, layout: FieldLayout, many: boolean, options: unknown) {
    const key = fieldPath(name);
    const id = typeof p['id'] === 'string' && p['id'] !== '' ? p['id'] : `fw-${key.includes('.') ? key.replaceAll('.', '-') : key}`;
    const bag = typeof p['bag'] === 'string' && p['bag'] !== '' ? p['bag'] : 'default';

    const error = callable(this, 'error');
    let message: unknown = error === null ? null : error.call(this, key, bag);
    if (!message && key !== name && error !== null) message = error.call(this, name, bag);
    message = message || null;

    // Old input refills a field of the bag that failed (any field, for the default bag).
    const old = callable(this, 'old');
    // Looked up only when used (each lookup walks the page's and the library's names).
    const errorsIn = bag === 'default' ? null : callable(this, 'errors_in');
    const mine = old !== null && (bag === 'default' || (errorsIn !== null && Object.keys((errorsIn.call(this, bag) as object | null) ?? {}).length > 0));
    let current: unknown = p['value'];
    let found = false;
    if (mine) {
      let value = old.call(this, name, null);
      if ((value === null || value === undefined) && key !== name) value = old.call(this, key, null);
      if (value !== null && value !== undefined) {
        current = value;
        found = true;
      }
    }
    // After a failed submit, a checkbox or list the browser did not send is unticked or empty.
    const hasOld = found || !mine ? null : callable(this, 'has_old');
    const refill = found || (mine && hasOld !== null && hasOld.call(this) === true);
    if (refill && !found && many) current = [];

    let values: string[] | null = null;
    if (options !== null && options !== undefined) {
      if (typeof current === 'string') values = [current];
      else if (typeof current === 'number') values = [String(current)];
      else if (Array.isArray(current)) values = current.map(asText);
      else values = [];
    }

    let described = p['prefix'] ? `${id}-prefix` : '';
    if (p['hint']) described += `${described === '' ? '' : ' '}${id}-hint`;
    if (message) described += `${described === '' ? '' : ' '}${id}-error`;
    const eid = escape(id);
    let common = ` id="${eid}"`;
    if (p['required']) common += ' required';
    if (p['disabled']) common += ' disabled';
    if (message) common += ' aria-invalid="true"';
    if (described !== '') common += ` aria-describedby="${escape(described)}"`;
    common += extraAttributes(p['attrs']);


    // The field's frame around its control: label (or legend), prefix, copy button, hint, error.
    const invalid = message ? ' fw-field-invalid' : '';
    const hidden = p['hide_label'] ? ' class="fw-visually-hidden"' : '';
    const mark = p['required'] ? '<span class="fw-required" aria-hidden="true">*</span>' : '';
    const after = (p['hint'] ? `<p class="fw-hint" id="${eid}-hint">${html(p['hint'])}</p>` : '') + (message ? `<p class="fw-error" id="${eid}-error">${html(message)}</p>` : '');
    const labelTag = `<label for="${eid}"${hidden}>${html(label)}${mark}</label>`;
    let open: string;
    let close: string;
    if (layout === 'group') {
      open = `<fieldset class="fw-field fw-fieldset fw-field-${kind}${invalid}" id="${eid}"${p['disabled'] ? ' disabled' : ''}><legend${hidden}>${html(label)}${mark}</legend>`;
      close = `${after}</fieldset>`;
    } else if (layout === 'check') {
      open = `<div class="fw-field fw-field-${kind}${invalid}"><div class="fw-check">`;
      close = `${labelTag}</div>${after}</div>`;
    } else {
      open = `<div class="fw-field fw-field-${kind}${invalid}">${labelTag}<div class="fw-control">` + (p['prefix'] ? `<span class="fw-prefix" id="${eid}-prefix">${html(p['prefix'])}</span>` : '');
      let copy = '';
      const t = p['copyable'] ? callable(this, 't') : null;
      if (t !== null) copy = `<button type="button" class="fw-copy" data-fw-copy="${eid}" data-fw-copied="${html(t.call(this, 'ui.fields.copied'))}" hidden>${html(t.call(this, 'ui.fields.copy'))}</button>`;
      close = `${copy}</div>${after}</div>`;
    }
    const safe = (text: string) => new nunjucks.runtime.SafeString(text);
    return { fid: id, key, message, refill, found, current, values, options, described, common: safe(common), open: safe(open), close: safe(close), p };
  });
}
