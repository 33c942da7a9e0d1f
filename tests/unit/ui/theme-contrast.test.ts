/**
 * WCAG AA contrast of the UI kit's colour tokens (public/fw/ui/theme.css) in every theme and
 * scheme: the pairs the kit puts on top of each other, computed with WCAG 2's relative
 * luminance. Text needs 4.5:1; control borders and the focus ring 3:1 (WCAG 1.4.11).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';

const CSS = readFileSync(join(FRAMEWORK_ROOT, 'public', 'fw', 'ui', 'theme.css'), 'utf8');
const THEMES = ['editorial', 'warm', 'classic'] as const;
const SCHEMES = ['light', 'dark'] as const;

/** Every `/* theme: x, scheme: y *\/` block: its selector and its tokens. */
function blocks(): { theme: string; scheme: string; selector: string; tokens: Map<string, string> }[] {
  const found = [];
  for (const match of CSS.matchAll(/\/\* theme: (\w+), scheme: (\w+) \*\/\s*([^{]+)\{([^}]*)\}/gu)) {
    const tokens = new Map<string, string>();
    for (const declaration of (match[4] ?? '').matchAll(/(--fw-[\w-]+):\s*([^;]+);/gu)) tokens.set(declaration[1] ?? '', (declaration[2] ?? '').trim());
    found.push({ theme: match[1] ?? '', scheme: match[2] ?? '', selector: (match[3] ?? '').trim(), tokens });
  }
  return found;
}

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/iu.exec(hex);
  if (match === null) throw new Error(`not a #rrggbb colour: ${hex}`);
  const value = Number.parseInt(match[1] ?? '', 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => {
    const c = channel / 255;
    return c <= 0.039_28 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** [foreground, background, minimum ratio]. */
const PAIRS: [string, string, number][] = [
  ...['--fw-bg', '--fw-surface', '--fw-code-bg', '--fw-tint', '--fw-accent-soft', '--fw-danger-soft', '--fw-success-soft', '--fw-warning-soft', '--fw-info-soft', '--fw-control-bg'].map(
    (background): [string, string, number] => ['--fw-ink', background, 4.5],
  ),
  ...['--fw-muted', '--fw-accent', '--fw-accent-2', '--fw-danger', '--fw-success', '--fw-warning', '--fw-info'].flatMap((text): [string, string, number][] => [
    [text, '--fw-bg', 4.5],
    [text, '--fw-surface', 4.5],
  ]),
  ['--fw-muted', '--fw-tint', 4.5],
  ['--fw-accent', '--fw-accent-soft', 4.5],
  ['--fw-accent', '--fw-tint', 4.5],
  ['--fw-danger', '--fw-danger-soft', 4.5],
  ['--fw-success', '--fw-success-soft', 4.5],
  ['--fw-warning', '--fw-warning-soft', 4.5],
  ['--fw-info', '--fw-info-soft', 4.5],
  ['--fw-on-accent', '--fw-accent', 4.5],
  ['--fw-on-accent', '--fw-accent-hover', 4.5],
  ['--fw-on-danger', '--fw-danger', 4.5],
  ['--fw-on-danger', '--fw-danger-hover', 4.5],
  ['--fw-control-line', '--fw-control-bg', 3],
  ['--fw-control-line', '--fw-surface', 3],
  ['--fw-control-line', '--fw-bg', 3],
  ['--fw-focus', '--fw-bg', 3],
  ['--fw-focus', '--fw-surface', 3],
];

const COLOUR_TOKENS = [
  '--fw-bg', '--fw-surface', '--fw-ink', '--fw-muted', '--fw-line', '--fw-control-line', '--fw-control-bg', '--fw-accent', '--fw-accent-hover',
  '--fw-on-accent', '--fw-accent-2', '--fw-tint', '--fw-accent-soft', '--fw-focus', '--fw-danger', '--fw-danger-hover', '--fw-on-danger',
  '--fw-danger-soft', '--fw-success', '--fw-success-soft', '--fw-warning', '--fw-warning-soft', '--fw-info', '--fw-info-soft', '--fw-code-bg', '--fw-shadow',
];

describe('theme.css', () => {
  const all = blocks();

  it('defines every colour token for each theme in each scheme, and forces dark with the same values as the media query', () => {
    for (const theme of THEMES) {
      for (const scheme of SCHEMES) {
        const found = all.filter((block) => block.theme === theme && block.scheme === scheme);
        // Light once; dark twice (prefers-color-scheme, and data-fw-scheme="dark").
        expect(found, `${theme}/${scheme}`).toHaveLength(scheme === 'light' ? 1 : 2);
        for (const block of found) expect([...block.tokens.keys()].sort(), `${theme}/${scheme} ${block.selector}`).toEqual([...COLOUR_TOKENS].sort());
        if (scheme === 'dark') {
          expect(found[0]?.selector).toMatch(/:not\(\[data-fw-scheme="light"\]\)/u);
          expect(found[1]?.selector).toMatch(/\[data-fw-scheme="dark"\]/u);
          expect([...(found[1]?.tokens ?? [])]).toEqual([...(found[0]?.tokens ?? [])]);
        }
      }
    }
  });

  it('names every token of the spec and of UIKIT.md, including the type scale', () => {
    for (const name of ['--fw-type-hero', '--fw-type-section', '--fw-type-heading', '--fw-type-display', '--fw-type-title', '--fw-type-lead', '--fw-type-body', '--fw-type-label', '--fw-type-note', '--fw-type-caption', '--fw-space', '--fw-radius-small']) {
      expect(CSS, name).toContain(`${name}:`);
    }
  });

  for (const theme of THEMES) {
    for (const scheme of SCHEMES) {
      it(`meets WCAG AA contrast in the ${theme} theme, ${scheme} scheme`, () => {
        const block = all.find((candidate) => candidate.theme === theme && candidate.scheme === scheme);
        const tokens = block?.tokens ?? new Map<string, string>();
        const failures = PAIRS.flatMap(([foreground, background, minimum]) => {
          const ratio = contrast(tokens.get(foreground) ?? '', tokens.get(background) ?? '');
          return ratio >= minimum ? [] : [`${foreground} on ${background}: ${ratio.toFixed(2)} < ${minimum}`];
        });
        expect(failures).toEqual([]);
      });
    }
  }

  it('computes WCAG ratios (black on white is 21, grey #777 on white about 4.48)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});
