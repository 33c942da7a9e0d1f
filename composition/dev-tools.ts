import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DevTools } from '../adapters/http/dev-tools/dev-tools.js';
import { RecordingLogger } from '../adapters/http/dev-tools/recording-logger.js';
import { RecordingMailer } from '../adapters/http/dev-tools/recording-mailer.js';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import type { Config } from './config.js';

/** Spec 001: live reload and the request inspector exist only with APP_DEBUG on and APP_ENV=local. */
export function devToolsEnabled(config: Config): boolean {
  return config.app.debug && config.app.env === 'local';
}

/**
 * The folders whose changes reload the pages: the app's `resources/` (views, stylesheets) and
 * `public/`, the framework's templates and public files. Only those that exist, once each.
 */
export function watchFolders(root: string, frameworkRoot: string): string[] {
  const folders = [join(root, 'resources'), join(root, 'public'), FRAMEWORK_TEMPLATES, join(frameworkRoot, 'public')];
  return [...new Set(folders)].filter((folder) => existsSync(folder));
}

/** The app's dev tools, or null (production, tests, anything but local debugging): then nothing of them is made. */
export function createDevTools(config: Config, parts: { root: string; frameworkRoot: string; logger: Logger }): DevTools | null {
  if (!devToolsEnabled(config)) return null;
  return new DevTools({
    watchFolders: watchFolders(parts.root, parts.frameworkRoot),
    logger: parts.logger,
    appUrl: config.app.url,
  });
}

/** The logger whose lines the inspector also keeps. */
export function recordingLogger(logger: Logger, devTools: DevTools): Logger {
  return new RecordingLogger(logger, devTools.inspector);
}

/** The mailer whose mails the inspector also keeps (local debugging only). */
export function recordingMailer(mailer: Mailer, devTools: DevTools): Mailer {
  return new RecordingMailer(mailer, devTools.inspector);
}
