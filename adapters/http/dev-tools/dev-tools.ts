import { AsyncLocalStorage } from 'node:async_hooks';
import type { Routes } from '../../../domain/http/routing/routes.js';
import type { Logger } from '../../../ports/logger.js';
import type { ViewRenderer } from '../../../ports/view-renderer.js';
import { escapeHtml } from '../kernel/error-responder.js';
import type { KernelContext } from '../kernel/context.js';
import type { Stage } from '../kernel/pipeline.js';
import type { Handler } from '../kernel/request-context.js';
import type { SharedValue } from '../kernel/view-globals.js';
import { debugRoutes } from './debug-routes.js';
import { inspectorStage } from './inspector-stage.js';
import { LiveReload } from './live-reload.js';
import { RequestInspector } from './request-inspector.js';

export interface DevToolsOptions {
  /** Folders whose changes reload the pages. */
  watchFolders: readonly string[];
  logger: Logger;
  /** APP_URL: the inspector answers for its host (and loopback names) only. */
  appUrl: string;
  /** How many requests the inspector keeps (100). */
  capacity?: number;
  heartbeatMs?: number;
}

/**
 * The local development tools of spec 001: the live-reload stream (`/_fw/live`) and the
 * request inspector (`/_fw/debug`). The composition root makes one only with APP_DEBUG on and
 * APP_ENV=local; otherwise none exists, so nothing of it runs, records or answers.
 */
export class DevTools {
  readonly inspector: RequestInspector;
  private liveReload: LiveReload | null = null;
  /**
   * The id of the request being answered, carried through every `await` of its work, so the
   * SQL, mails and events the inspector hears from anywhere land on their request. Only the
   * dev tools use an AsyncLocalStorage: on Node 20 running one turns on promise hooks for every
   * promise of the process (3–8 % of a page's CPU), a price paid only while debugging locally.
   */
  private readonly requests = new AsyncLocalStorage<string>();

  constructor(private readonly options: DevToolsOptions) {
    this.inspector = new RequestInspector(() => this.requests.getStore() ?? null, options.capacity);
  }

  /** Runs a request's work (the kernel's onion, its work after the answer) as request `requestId`. */
  within<T>(requestId: string, work: () => T): T {
    return this.requests.run(requestId, work);
  }

  /** The live-reload hub, made (and its folders watched) on first use: commands never start it. */
  live(): LiveReload {
    this.liveReload ??= new LiveReload({
      folders: this.options.watchFolders,
      logger: this.options.logger,
      ...(this.options.heartbeatMs === undefined ? {} : { heartbeatMs: this.options.heartbeatMs }),
    });
    return this.liveReload;
  }

  /** The kernel's stage for the inspector, placed just inside the session stage. */
  stages(): Stage[] {
    return [inspectorStage(this.inspector)];
  }

  /** `/_fw/debug` and `/_fw/debug/{id}`. */
  routes(): Routes<Handler> {
    return debugRoutes(this.inspector, this.options.appUrl);
  }

  /**
   * `fw_live()` in templates (the built-in layout calls it when it exists): the live-reload
   * script with this request's CSP nonce, and this server's boot for it to compare. It is an
   * ES module file (`public/fw/live.js`): the CSP allows no inline script.
   */
  share(renderer: ViewRenderer, assetUrl: (path: string) => string): SharedValue {
    return {
      name: 'fw_live',
      compute: (ctx: KernelContext) => () =>
        renderer.safe(
          `<meta name="fw-live" content="${escapeHtml(this.live().boot)}">` +
            `<script type="module" src="${escapeHtml(assetUrl('fw/live.js'))}" nonce="${escapeHtml(ctx.request.state.nonce)}"></script>`,
        ),
    };
  }

  /** Ends the open live-reload streams (a server stopping must not wait for them). */
  endStreams(): void {
    this.liveReload?.endStreams();
  }

  async close(): Promise<void> {
    const live = this.liveReload;
    this.liveReload = null;
    await live?.close();
  }
}
