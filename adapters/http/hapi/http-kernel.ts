import { tmpdir } from 'node:os';
import { answerHealthFirst } from './health-first.js';
import { answerPagesFirst } from './page-first.js';
import { join } from 'node:path';
import Hapi from '@hapi/hapi';
import type { Server } from '@hapi/hapi';
import Inert from '@hapi/inert';
import { ROBOTS_TXT } from '../kernel/front.js';
import { createKernel } from '../kernel/kernel.js';
import type { KernelOptions } from '../kernel/kernel.js';
import { storageRoutes } from '../storage/storage-routes.js';
import { uploadStage } from '../uploads/hapi-uploads.js';
import { hapiDispatcher } from './dispatch.js';
import { rawBodyRoutes } from './raw-body-routes.js';
import { builtInRoutes } from './stages/built-in-routes.js';
import { liveReloadRoute } from './stages/live-reload-route.js';
import { accessLogStage } from './stages/access-log.js';
import { frontExts } from './stages/front-exts.js';

export interface HttpKernelOptions extends KernelOptions {
  host: string;
  port: number;
}

/**
 * Builds the hapi server with the pipeline of spec 001, in its order. hapi does the HTTP:
 * parsing, payload limits, cookies, files, and the stages before routing; the kernel
 * (`adapters/http/kernel/`) does the route table, the session, views and errors. The server is
 * returned configured and not yet listening.
 */
export async function createHttpKernel(options: HttpKernelOptions): Promise<Server> {
  const kernel = createKernel(options);
  const { settings, services } = options;
  const server = Hapi.server({
    host: options.host,
    port: options.port,
    router: { stripTrailingSlash: false },
    state: { strictHeader: false, ignoreErrors: true, clearInvalid: false },
    routes: {
      // Cookies are read from the raw header by the framework (see kernel/cookie-header.ts); hapi
      // still writes Set-Cookie.
      state: { parse: false, failAction: 'ignore' },
      response: { emptyStatusCode: 204 },
    },
  });
  await server.register(Inert);

  const { publicFiles, https } = kernel;
  const front = { https, trustedProxies: settings.trustedProxies, random: services.random, logger: services.logger };
  answerHealthFirst(server.listener, front);
  // Request id and nonce, trusted hosts, the body limit; error pages and security headers.
  frontExts(server, { front, trustedHosts: settings.trustedHosts, uploadMaxBytes: settings.uploadMaxBytes, kernel });
  accessLogStage(server);
  builtInRoutes(server, { publicFiles, robotsTxt: ROBOTS_TXT });
  if (services.devTools !== undefined) liveReloadRoute(server, services.devTools);
  const readUploads = uploadStage(server, { maxBytes: settings.uploadMaxBytes, tempDir: settings.uploadTempDir ?? join(tmpdir(), 'fw-uploads'), now: () => services.clock.now(), translator: services.forms.translator });
  const storage = services.storage;
  if (storage !== undefined) storageRoutes(server, { storage, publicFolders: settings.publicStorage ?? [], signing: { key: services.keys.signedUrls, clock: services.clock } });

  const dispatch = hapiDispatcher({ dispatch: kernel.dispatch, publicFiles, send: { sealer: services.sealer, https }, bodyMaxDepth: settings.bodyMaxDepth });
  // GET and HEAD on a route of their own: hapi puts a payload step (an awaited no-op for a GET)
  // and the upload reader in the lifecycle of the route that takes bodies.
  server.route({ method: 'GET', path: '/{path*}', handler: dispatch });
  server.route({
    method: '*',
    path: '/{path*}',
    options: {
      ext: { onPreAuth: { method: readUploads } },
      payload: {
        maxBytes: settings.uploadMaxBytes,
        output: 'data',
        parse: true,
        multipart: { output: 'data' },
      },
    },
    handler: dispatch,
  });
  // Webhook paths keep their body's bytes for the signature check.
  rawBodyRoutes(server, kernel.rawBodyPaths, { maxBytes: settings.uploadMaxBytes, handler: dispatch });
  // Last, once every route is in hapi's router: plain page GETs skip hapi's lifecycle.
  answerPagesFirst(server, { kernel, front, trustedHosts: settings.trustedHosts, sealer: services.sealer, bodyMaxDepth: settings.bodyMaxDepth, uploadMaxBytes: settings.uploadMaxBytes });
  return server;
}
