/**
 * The folder holding the framework's built-in templates (`fw/layout.html`, `fw/error.html`, …),
 * to put last in a renderer's search paths so an app's file of the same name wins. Found by
 * walking up from this file, so it is the same folder whether the code runs from its
 * TypeScript sources or compiled into `dist/`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FrameworkError } from '../../domain/shared/errors.js';

function findTemplates(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'templates', 'fw', 'layout.html'))) return join(dir, 'templates');
    if (dirname(dir) === dir) throw new FrameworkError('view.templates-not-found', `The framework's templates/ folder was not found above ${start}`);
  }
}

export const FRAMEWORK_TEMPLATES = findTemplates(dirname(fileURLToPath(import.meta.url)));
