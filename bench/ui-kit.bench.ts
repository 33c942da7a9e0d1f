/**
 * Pages per second: a form of 40 UI kit fields (inputs, textareas, selects, checkboxes, radios,
 * checkbox lists, date pickers, tags) after a failed submit, every field with an error and its
 * old input, rendered by the kit's macros, against the same form written as plain HTML in a
 * nunjucks template (the baseline: the same old()/error() calls, no macros). The ratio is the
 * kit's macro cost. Same renderer, same globals, one core. Target: the kit at least 0.5 of plain.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { JsonTranslator } from '../adapters/lang/json-translator.js';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../adapters/views/nunjucks/nunjucks-view-renderer.js';
import { registerTranslations } from '../adapters/views/nunjucks/register-translations.js';
import { lookupOld } from '../domain/session/form.js';
import type { JsonObject } from '../domain/session/json.js';

type Kind = 'input' | 'textarea' | 'select' | 'checkbox' | 'radio' | 'checkbox_list' | 'date_picker' | 'tags_input';
const KINDS: readonly Kind[] = [
  ...Array<Kind>(16).fill('input'), ...Array<Kind>(4).fill('textarea'), ...Array<Kind>(6).fill('select'),
  ...Array<Kind>(4).fill('checkbox'), ...Array<Kind>(4).fill('radio'), ...Array<Kind>(2).fill('checkbox_list'),
  ...Array<Kind>(2).fill('date_picker'), ...Array<Kind>(2).fill('tags_input'),
];
const OPTIONS = [['de', 'Germany'], ['fr', 'France'], ['it', 'Italy'], ['es', 'Spain']] as const;

const fields = KINDS.map((kind, index) => ({ kind, name: `${kind}_${index}`, label: `Field ${index}` }));

/** The failed submit: every field has old input and an error. */
const oldInput: JsonObject = Object.fromEntries(fields.map(({ kind, name }) => [name, kind === 'checkbox_list' ? ['de', 'it'] : kind === 'checkbox' ? '1' : kind === 'select' || kind === 'radio' ? 'fr' : kind === 'date_picker' ? '2026-05-04' : `value of ${name}`]));
const errors: Record<string, string[]> = Object.fromEntries(fields.map(({ name }) => [name, [`The ${name} field is not valid.`]]));

/** What the kernel's view globals give a page (adapters/http/kernel/view-globals.ts), over the same session data. */
const globals = {
  app: { name: 'Bench', locale: 'en', env: 'production', debug: false, url: 'http://localhost' },
  old: (field: string, fallback: unknown = '') => lookupOld(oldInput, field) ?? fallback,
  has_old: () => true,
  error: (field: string, bag = 'default') => (bag === 'default' ? (errors[field]?.[0] ?? null) : null),
  errors_in: (bag: string) => (bag === 'default' ? errors : {}),
  options: OPTIONS,
};

function kitField({ kind, name, label }: (typeof fields)[number]): string {
  const common = `'${name}', '${label}', required=true, hint='A hint for ${label}.'`;
  switch (kind) {
    case 'input': return `{{ input(${common}) }}`;
    case 'textarea': return `{{ textarea(${common}) }}`;
    case 'select': return `{{ select(${common}, options=options) }}`;
    case 'checkbox': return `{{ checkbox('${name}', '${label}', hint='A hint for ${label}.') }}`;
    case 'radio': return `{{ radio(${common}, options=options) }}`;
    case 'checkbox_list': return `{{ checkbox_list('${name}', '${label}', hint='A hint for ${label}.', options=options) }}`;
    case 'date_picker': return `{{ date_picker(${common}) }}`;
    case 'tags_input': return `{{ tags_input(${common}) }}`;
  }
}

/** The same field written by hand: label, control, hint and error, as a careful page author would. */
function plainField({ kind, name, label }: (typeof fields)[number]): string {
  const id = `fw-${name}`;
  const aria = `{% if error('${name}') %} aria-invalid="true" aria-describedby="${id}-hint ${id}-error"{% else %} aria-describedby="${id}-hint"{% endif %}`;
  const after = `<p class="fw-hint" id="${id}-hint">A hint for ${label}.</p>{% if error('${name}') %}<p class="fw-error" id="${id}-error">{{ error('${name}') }}</p>{% endif %}`;
  const open = `<div class="fw-field{% if error('${name}') %} fw-field-invalid{% endif %}">`;
  const labelled = `<label for="${id}">${label}<span class="fw-required" aria-hidden="true">*</span></label>`;
  const choices = (type: string) =>
    `<fieldset class="fw-field" id="${id}"><legend>${label}</legend><div class="fw-choices">{% for option in options %}<span class="fw-choice"><input type="${type}" name="${name}" value="{{ option[0] }}" id="${id}-{{ loop.index0 }}"{% if option[0] == old('${name}') or option[0] in old('${name}') %} checked{% endif %}${aria}><label for="${id}-{{ loop.index0 }}">{{ option[1] }}</label></span>{% endfor %}</div>${after}</fieldset>`;
  switch (kind) {
    case 'input': return `${open}${labelled}<div class="fw-control"><input name="${name}" type="text" id="${id}" required${aria} value="{{ old('${name}') }}"></div>${after}</div>`;
    case 'textarea': return `${open}${labelled}<div class="fw-control"><textarea name="${name}" rows="4" id="${id}" required${aria}>{{ old('${name}') }}</textarea></div>${after}</div>`;
    case 'select': return `${open}${labelled}<div class="fw-control"><select name="${name}" id="${id}" required${aria}>{% for option in options %}<option value="{{ option[0] }}"{% if option[0] == old('${name}') %} selected{% endif %}>{{ option[1] }}</option>{% endfor %}</select></div>${after}</div>`;
    case 'checkbox': return `${open}<div class="fw-check"><input type="checkbox" name="${name}" value="1" id="${id}"${aria}{% if old('${name}') %} checked{% endif %}><label for="${id}">${label}</label></div>${after}</div>`;
    case 'radio': return choices('radio');
    case 'checkbox_list': return choices('checkbox');
    case 'date_picker': return `${open}${labelled}<div class="fw-control"><input name="${name}" type="date" id="${id}" required${aria} value="{{ old('${name}') }}"></div>${after}</div>`;
    case 'tags_input': return `${open}${labelled}<div class="fw-control"><input name="${name}" type="text" id="${id}" required${aria} data-fw-tags value="{{ old('${name}') }}"></div>${after}</div>`;
  }
}

const page = (body: string) => `<!doctype html><html lang="en"><head><title>Form</title></head><body><form method="post">${body}<button>Save</button></form></body></html>`;
const names = 'input, textarea, select, checkbox, radio, checkbox_list, date_picker, tags_input';
const views = mkdtempSync(join(tmpdir(), 'fw-bench-ui-'));
writeFileSync(join(views, 'kit.html'), `{% from "fw/ui.html" import ${names} %}` + page(fields.map(kitField).join('\n')));
writeFileSync(join(views, 'plain.html'), page(fields.map(plainField).join('\n')));

const renderer = new NunjucksViewRenderer({
  searchPaths: [views, FRAMEWORK_TEMPLATES],
  debug: false,
  configure: (env) => registerTranslations(env, new JsonTranslator([`${FRAMEWORK_TEMPLATES}/lang`], 'en')),
});

// Both pages must show every error and refill every field before they are timed.
for (const view of ['kit.html', 'plain.html']) {
  const html = await renderer.render(view, globals);
  const shown = (html.match(/class="fw-error"/gu) ?? []).length;
  const invalid = (html.match(/aria-invalid="true"/gu) ?? []).length;
  if (shown !== fields.length) throw new Error(`${view} shows ${shown} errors, not ${fields.length}`);
  if (invalid < fields.length) throw new Error(`${view} marks ${invalid} controls invalid`);
  if (!html.includes('value="value of input_0"')) throw new Error(`${view} does not refill the inputs`);
}

const bench = new Bench({ time: 3000, warmup: true });
bench
  .add('plain HTML in a nunjucks template (baseline)', () => renderer.render('plain.html', globals))
  .add('the UI kit macros', () => renderer.render('kit.html', globals));
await bench.run();

const rates: number[] = [];
console.log(`A form of ${fields.length} fields with errors and old input, one core:`);
for (const task of bench.tasks) {
  const result = task.result;
  if (!result || !('latency' in result)) continue;
  rates.push(1000 / result.latency.mean);
  console.log(`${task.name.padEnd(46)} ${(1000 / result.latency.mean).toFixed(0).padStart(7)} pages/s  ${result.latency.mean.toFixed(3).padStart(8)} ms`);
}

/**
 * CPU time of this process (the machine's cores are shared; wall time counts the others too).
 * Rounds alternate between the two pages and the best round of each counts, so a burst of
 * another process's work does not land on one side only.
 */
async function perCpuSecond(view: string, rounds: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await renderer.render(view, globals);
  const used = process.cpuUsage(start);
  return rounds / ((used.user + used.system) / 1e6);
}
let plainCpu = 0;
let kitCpu = 0;
for (let round = 0; round < 8; round++) {
  plainCpu = Math.max(plainCpu, await perCpuSecond('plain.html', 200));
  kitCpu = Math.max(kitCpu, await perCpuSecond('kit.html', 200));
}
const ratio = kitCpu / plainCpu;
console.log(`per CPU-second (best of 8 alternating rounds): plain ${plainCpu.toFixed(0)} pages/s, kit ${kitCpu.toFixed(0)} pages/s`);
console.log(`kit / plain = ${ratio.toFixed(2)} (wall: ${((rates[1] ?? 0) / (rates[0] ?? 1)).toFixed(2)}); target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
rmSync(views, { recursive: true, force: true });
