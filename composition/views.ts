import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from 'nunjucks';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../adapters/views/nunjucks/nunjucks-view-renderer.js';
import type { Config } from './config.js';

/**
 * The app's templates (`resources/views/`) in front of the framework's, for pages and mails
 * alike; `App.templates` hooks customise the environment.
 */
export function createViewRenderer(config: Config, root: string, hooks: readonly ((env: Environment) => void)[]): NunjucksViewRenderer {
  const appViews = join(root, 'resources', 'views');
  return new NunjucksViewRenderer({
    searchPaths: [...(existsSync(appViews) ? [appViews] : []), FRAMEWORK_TEMPLATES],
    debug: config.app.debug,
    watch: config.app.env === 'local',
    configure: (env) => {
      for (const configure of hooks) configure(env);
    },
  });
}
