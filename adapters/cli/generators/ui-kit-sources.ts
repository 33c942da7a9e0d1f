/**
 * What `ui:publish` and `make:component` write. App components live in
 * `resources/views/components/`: the app's views folder is searched first, so
 * `{% from "components/ui.html" import input %}` and `{% from "components/x.html" import x %}`
 * resolve there like any app template.
 */
import { UsageError } from '../command.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** Where components go, relative to the app's folder. */
export const COMPONENTS_FOLDER = 'resources/views/components';

/** The kit's area files in the order they are published (frame first: others use its icon). */
export const KIT_AREAS = ['frame', 'fields', 'controls', 'details', 'actions'] as const;

/** `{% from "fw/ui/<area>.html" import … %}`: how an area file uses another's macros (UIKIT.md). */
const AREA_IMPORT = /^[ \t]*\{%-?\s*from\s+(["'])fw\/ui\/[a-z_-]+\.html\1\s+import\s+[^%]*-?%\}[ \t]*\r?\n?/gmu;
const MACRO = /\{%-?\s*macro\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/gu;

/**
 * The kit as one file: each area's file in turn without its imports of other areas (in one file
 * every macro already sees the others). Refuses a kit whose areas define the same macro twice,
 * since in one file the later would silently replace the earlier.
 */
export function publishedKit(areas: readonly { area: string; source: string }[], version: string): string {
  const seen = new Map<string, string>();
  const clashes: string[] = [];
  for (const { area, source } of areas) {
    for (const match of source.matchAll(MACRO)) {
      const name = match[1] ?? '';
      const earlier = seen.get(name);
      if (earlier !== undefined) clashes.push(`${name} (${earlier} and ${area})`);
      seen.set(name, area);
    }
  }
  if (clashes.length > 0) throw new FrameworkError('cli.kit-macro-twice', `The kit's areas define the same macro twice: ${clashes.join(', ')}; nothing was written`);
  const parts = areas.map(({ area, source }) => `{#- ===== ${area} ===== -#}\n${source.replace(AREA_IMPORT, '').trim()}\n`);
  return [
    `{#- The fw UI kit ${version}, published by \`fwx ui:publish\` as one file: every macro of`,
    `    fw/ui.html. Import from it with {% from "components/ui.html" import input, button %} and`,
    `    change it as you like: the framework no longer updates it (\`fwx ui:publish --force\``,
    `    writes it again, over your changes). -#}`,
    '',
    parts.join('\n'),
  ].join('\n');
}

/** `order-card`, `OrderCard` or `order_card` → the file `order-card.html` and the macro `order_card`. */
export function componentNames(name: string): { file: string; macro: string; css: string } {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/u.test(name)) throw new UsageError('The component name must start with a letter and hold letters, digits, - and _ (e.g. order-card)');
  const words = name
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .split(/[\s_-]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
  if (words.join('_') === 'ui') throw new UsageError('"ui" is the kit\'s own file (components/ui.html, from ui:publish); pick another name');
  return { file: `${words.join('-')}.html`, macro: words.join('_'), css: words.join('-') };
}

/** A component to start from: a small form with one field, showing what a component can use. */
export function componentSource(name: string): string {
  const { file, macro, css } = componentNames(name);
  return `{#- components/${file}: {% from "components/${file}" import ${macro} %} then
    {{ ${macro}(action=route('…'), ability='…') }}.
    Imports see the page's variables, so old(), error(), t(), can(), auth and csrf_field()
    work in here as in the page. Keep it free of inline styles and scripts (the CSP is strict):
    style it with classes in a stylesheet of public/. -#}
{% macro ${macro}(action='', name='value', label='Value', value='', ability=none, subject=none) -%}
{%- set field_id = '${css}-' ~ name -%}
{%- set message = error(name) -%}
{%- set allowed = ability is none or (can(ability) if subject is none else can(ability, subject)) -%}
<form class="${css}" method="post" action="{{ action }}">
  {{ csrf_field() }}
  {%- if auth.check %}
  <p class="${css}-user">{{ auth.user.name }}</p>
  {%- endif %}
  <label for="{{ field_id }}">{{ label }}</label>
  <input id="{{ field_id }}" name="{{ name }}" value="{{ old(name, value) }}"
    {%- if message %} aria-invalid="true" aria-describedby="{{ field_id }}-error"{% endif %}
    {%- if not allowed %} disabled{% endif %}>
  {%- if message %}
  <p class="fw-field-error" id="{{ field_id }}-error">{{ message }}</p>
  {%- endif %}
  {%- if allowed %}
  <button class="fw-button" type="submit">{{ t('ui.component.save') }}</button>
  {%- endif %}
</form>
{%- endmacro %}
`;
}
