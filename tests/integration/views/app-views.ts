/**
 * An app's `resources/views` folder written to a temporary directory, and a renderer that
 * searches it before the framework's real `templates/` folder, as an app's would.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../../../adapters/views/nunjucks/nunjucks-view-renderer.js';
import type { NunjucksViewRendererOptions } from '../../../adapters/views/nunjucks/nunjucks-view-renderer.js';
import { registerTranslations } from '../../../adapters/views/nunjucks/register-translations.js';
import { frameworkTranslator } from '../../support/lang.js';

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Writes `files` (name → content) under a fresh folder and returns the folder. */
export function writeViews(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-views-'));
  folders.push(root);
  for (const [name, content] of Object.entries(files)) writeView(root, name, content);
  return root;
}

export function writeView(root: string, name: string, content: string): void {
  const file = join(root, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function rendererFor(
  files: Record<string, string>,
  options: Partial<Omit<NunjucksViewRendererOptions, 'searchPaths'>> = {},
): NunjucksViewRenderer {
  // The framework's pages call t(): the translations are registered as createViewRenderer does.
  const { configure } = options;
  return new NunjucksViewRenderer({
    debug: false,
    ...options,
    configure: (env) => {
      registerTranslations(env, frameworkTranslator);
      configure?.(env);
    },
    searchPaths: [writeViews(files), FRAMEWORK_TEMPLATES],
  });
}

/** The usual globals of a page, as the HTTP kernel provides them. */
export const APP = { app: { name: 'Acme Shop', locale: 'en', env: 'testing', debug: false } };
