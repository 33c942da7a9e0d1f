import type { Environment } from 'nunjucks';
import type { ViewRenderer } from '../../ports/view-renderer.js';
import { createViewRenderer } from '../views.js';
import { CORE_TOKENS as C } from './core.js';
import { LANG_TOKENS } from './lang.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const VIEW_TOKENS = {
  viewRenderer: token<ViewRenderer>('ViewRenderer'),
} as const;

/** Pages and mails: the app's `resources/views/` over the framework's templates, `App.templates` hooks applied. */
export function viewsArea(root: string, hooks: readonly ((env: Environment) => void)[]) {
  return ({ container }: Binding): void => {
    provide(container, VIEW_TOKENS.viewRenderer, [C.config, LANG_TOKENS.translator], (config, translator) => createViewRenderer(config, root, hooks, translator));
  };
}
