import { tmpdir } from 'node:os';
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
import { hapiErrorPages } from './hapi-errors.js';
import { answerHealthFirst } from './health-first.js';
import { rawBodyRoutes } from './raw-body-routes.js';
import { bodyLimitStage, formTooLargeAnswers } from './stages/body-limit.js';
import { builtInRoutes } from './stages/built-in-routes.js';
import { liveReloadRoute } from './stages/live-reload-route.js';
import { accessLogStage } from './stages/access-log.js';
import { securityHeadersStage } from './stages/security-headers.js';
import { trustedHostsStage } from './stages/trusted-hosts.js';

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
  // Registered first: a page made from one of hapi's errors still gets the headers below.
  formTooLargeAnswers(server, options.uploadMaxBytes);
  hapiErrorPages(server, kernel);
  const front = { https, trustedProxies: options.trustedProxies, random: options.random, logger: options.logger };
  answerHealthFirst(server.listener, front);
  securityHeadersStage(server, front);
  accessLogStage(server);
  trustedHostsStage(server, options.trustedHosts);
  bodyLimitStage(server, options.uploadMaxBytes);
  builtInRoutes(server, { publicFiles, robotsTxt: ROBOTS_TXT });
  if (options.devTools !== undefined) liveReloadRoute(server, options.devTools);
  uploadStage(server, { maxBytes: options.uploadMaxBytes, tempDir: options.uploadTempDir ?? join(tmpdir(), 'fw-uploads'), now: () => options.clock.now(), translator: options.forms.translator });
  const storage = options.storage;
  if (storage !== undefined) storageRoutes(server, { storage, publicFolders: options.publicStorage ?? [], signing: { key: options.keys.signedUrls, clock: options.clock } });

  const dispatch = hapiDispatcher({ dispatch: kernel.dispatch, publicFiles, send: { sealer: options.sealer, https }, bodyMaxDepth: options.bodyMaxDepth });
  server.route({
    method: '*',
    path: '/{path*}',
    options: {
      payload: {
        maxBytes: options.uploadMaxBytes,
        output: 'data',
        parse: true,
        multipart: { output: 'data' },
      },
    },
    handler: dispatch,
  });
  // Webhook paths keep their body's bytes for the signature check.
  rawBodyRoutes(server, kernel.rawBodyPaths, { maxBytes: options.uploadMaxBytes, handler: dispatch });
  return server;
}
