/**
 * `fw_choices(s, type, name, readonly, disabled, required, class)`: the inputs of a group
 * (radio, checkbox list, toggle buttons), one per option, as `_choices` in
 * templates/fw/ui/fields.html draws them. The template's loop ran two or three tests and a
 * filter per option through nunjucks' lookups (9-12 % of a kit form's render time in a
 * profile of bench/ui-kit.bench.ts). Only the plain shapes are drawn here: a list of strings
 * or numbers, of [value, label] pairs or of {value, label} objects, or a dict value → label,
 * with text or number values. Anything else (a SafeString value, a Map, odd items) answers
 * null and the template's own loop draws it, so every shape prints as it always did.
 */
import nunjucks from 'nunjucks';

const { SafeString } = nunjucks.runtime;
const lib = (nunjucks as unknown as { lib: { escape: (text: string) => string } }).lib;

interface FieldState {
  fid?: unknown;
  message?: unknown;
  described?: unknown;
  options?: unknown;
  values?: unknown;
}

type Plain = string | number;
const isPlain = (value: unknown): value is Plain => typeof value === 'string' || typeof value === 'number';

/** A label printed as nunjucks prints it: escaped unless marked safe. */
function label(value: Plain | InstanceType<typeof SafeString>): string {
  return value instanceof SafeString ? String(value) : lib.escape(String(value));
}
const isLabel = (value: unknown): value is Plain | InstanceType<typeof SafeString> => isPlain(value) || value instanceof SafeString;

/** The options as [value text, label] pairs, or null when one of them is not a plain shape. */
function pairs(options: unknown): Array<[string, Plain | InstanceType<typeof SafeString>]> | null {
  const out: Array<[string, Plain | InstanceType<typeof SafeString>]> = [];
  if (Array.isArray(options)) {
    for (const item of options as unknown[]) {
      if (isPlain(item)) out.push([String(item), item]);
      else if (Array.isArray(item) && (item as { value?: unknown }).value === undefined) {
        const [value, text] = item as unknown[];
        if (!isPlain(value) || !isLabel(text)) return null;
        out.push([String(value), text]);
      } else if (typeof item === 'object' && item !== null && Object.getPrototypeOf(item) === Object.prototype) {
        const { value, label: text } = item as { value?: unknown; label?: unknown };
        if (!isPlain(value) || (text !== undefined && !isLabel(text))) return null;
        out.push([String(value), text ?? value]);
      } else return null;
    }
    return out;
  }
  // A dict: nunjucks' two-name loop walks its keys with for…in (own keys of a plain object).
  if (typeof options === 'object' && options !== null && Object.getPrototypeOf(options) === Object.prototype) {
    for (const [value, text] of Object.entries(options as Record<string, unknown>)) {
      if (!isLabel(text)) return null;
      out.push([value, text]);
    }
    return out;
  }
  return null;
}

export function choiceInputs(s: FieldState, type: unknown, name: unknown, readonly: unknown, disabled: unknown, required: unknown, cls: unknown): InstanceType<typeof SafeString> | null {
  if (typeof s !== 'object' || s === null || typeof type !== 'string' || typeof name !== 'string' || typeof cls !== 'string' || typeof s.fid !== 'string' || typeof s.described !== 'string') return null;
  const values = s.values;
  if (!Array.isArray(values)) return null;
  const options = pairs(s.options);
  if (options === null) return null;
  const eClass = lib.escape(cls);
  const eType = lib.escape(type);
  const eName = lib.escape(name);
  const eFid = lib.escape(s.fid);
  const state = (required ? ' required' : '') + (disabled || readonly ? ' disabled' : '') + (s.message ? ' aria-invalid="true"' : '');
  const described = s.described ? ` aria-describedby="${lib.escape(s.described)}"` : '';
  const hiddenToo = Boolean(readonly) && !disabled;
  let html = '';
  for (let i = 0; i < options.length; i++) {
    const [value, text] = options[i] as [string, Plain | InstanceType<typeof SafeString>];
    const eValue = lib.escape(value);
    const chosen = values.includes(value);
    html += `<span class="${eClass}"><input type="${eType}" name="${eName}" value="${eValue}" id="${eFid}-${i}"${chosen ? ' checked' : ''}${state}${described}><label for="${eFid}-${i}">${label(text)}</label></span>`;
    if (hiddenToo && chosen) html += `<input type="hidden" name="${eName}" value="${eValue}">`;
  }
  return new SafeString(html);
}
