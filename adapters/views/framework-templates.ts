/**
 * The folder holding the framework's built-in templates (`fw/layout.html`, `fw/error.html`, …),
 * to put last in a renderer's search paths so an app's file of the same name wins.
 */
import { fileURLToPath } from 'node:url';

export const FRAMEWORK_TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url));
