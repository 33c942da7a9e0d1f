import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAMEWORK_ROOT } from '../../composition/app.js';

/**
 * Where a browser test writes a screenshot. The committed ones under `docs/screenshots/` (the
 * README shows them) are rewritten only when asked, `UPDATE_SCREENSHOTS=1 npx vitest run
 * tests/browser/…`; an ordinary run writes to a temporary folder, so running the tests never
 * changes tracked files (a pixel of anti-aliasing used to dirty the work tree on every run).
 */
export const UPDATING_SCREENSHOTS = process.env['UPDATE_SCREENSHOTS'] === '1';

let scratch: string | null = null;

export function screenshotPath(name: string): string {
  if (UPDATING_SCREENSHOTS) {
    const folder = join(FRAMEWORK_ROOT, 'docs', 'screenshots');
    mkdirSync(folder, { recursive: true });
    return join(folder, `${name}.png`);
  }
  scratch ??= mkdtempSync(join(tmpdir(), 'fw-screenshots-'));
  return join(scratch, `${name}.png`);
}
