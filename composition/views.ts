import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from 'nunjucks';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../adapters/views/nunjucks/nunjucks-view-renderer.js';
import { registerTranslations } from '../adapters/views/nunjucks/register-translations.js';
import { JsonTranslator } from '../adapters/lang/json-translator.js';
import type { Translator } from '../ports/translator.js';
import type { Config } from './config.js';

/**
 * The app's templates (`resources/views/`) in front of the framework's, for pages and mails
 * alike; `App.templates` hooks customise the environment.
 */
/** The app's `resources/lang/<locale>.json` over the framework's `templates/lang/`, APP_LOCALE as the fallback. */
export function createTranslator(config: Config, root: string): Translator {
  return new JsonTranslator([join(root, 'resources', 'lang'), join(FRAMEWORK_TEMPLATES, 'lang')], config.app.locale);
}

export function createViewRenderer(
  config: Config,
  root: string,
  hooks: readonly ((env: Environment) => void)[],
  translator: Translator = createTranslator(config, root),
): NunjucksViewRenderer {
  const appViews = join(root, 'resources', 'views');
  return new NunjucksViewRenderer({
    searchPaths: [...(existsSync(appViews) ? [appViews] : []), FRAMEWORK_TEMPLATES],
    debug: config.app.debug,
    watch: config.app.env === 'local',
    configure: (env) => {
      registerTranslations(env, translator);
      for (const configure of hooks) configure(env);
    },
  });
}
