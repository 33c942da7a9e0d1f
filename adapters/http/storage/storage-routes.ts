import { Boom } from '@hapi/boom';
import type { Server } from '@hapi/hapi';
// Brings `h.file()` (the @hapi/inert plugin) into hapi's types.
import type {} from '@hapi/inert';
import { rangeFits } from '../kernel/public-files.js';
import { PublicDisk, TEMPORARY_LINK_PATH, TemporaryLinks, publicDiskHeaders } from './storage-serving.js';
import type { StorageRefusal, StorageServingOptions } from './storage-serving.js';

export type StorageRouteOptions = StorageServingOptions;

/**
 * Stage 4 of the pipeline, beside the public files: the local public disk's files under their
 * path, and the temporary links of local private disks. Both answer before sessions and
 * maintenance mode, like `public/`, so a signed link sent by mail works without a session.
 * What is served and refused is decided in `storage-serving.ts`, as on the fetch transport.
 */
export function storageRoutes(server: Server, options: StorageRouteOptions): void {
  const plain = { state: { parse: false, failAction: 'ignore' as const } };
  for (const folder of options.publicFolders) {
    const disk = new PublicDisk(folder);
    server.route({
      method: 'GET',
      path: `${disk.prefix}/{key*}`,
      options: plain,
      handler: (request, h) => {
        const file = disk.file(request.path);
        if ('kind' in file) throw refusal(file);
        // Range, ETag and Last-Modified from inert; a Range it cannot serve is dropped (see rangeFits).
        if (!rangeFits(typeof request.headers['range'] === 'string' ? request.headers['range'] : undefined, file.size)) delete request.headers['range'];
        const response = h.file(file.absolutePath, { confine: false });
        const entry: { type?: string } = request.server.mime.path(file.absolutePath);
        for (const [name, value] of Object.entries(publicDiskHeaders(entry.type ?? ''))) response.header(name, value);
        return response;
      },
    });
  }

  const links = new TemporaryLinks(options);
  server.route({
    method: 'GET',
    path: `${TEMPORARY_LINK_PATH}/{disk}/{key*}`,
    options: plain,
    handler: async (request, h) => {
      // The request target exactly as sent: the signature covers the encoded path.
      const opened = await links.open(request.raw.req.url ?? '', String(request.params['disk'] ?? ''), request.params['key']);
      if (opened.kind === 'refused') throw refusal(opened);
      return h.response(opened.stream).type(opened.contentType).bytes(opened.size).header('content-disposition', opened.contentDisposition).header('cache-control', opened.cacheControl);
    },
  });
}

/** hapi's error for a refusal: `forbidden(detail)`, or `notFound()` without one. */
function refusal(refused: StorageRefusal): Boom {
  return new Boom(refused.detail === '' ? undefined : refused.detail, { statusCode: refused.status });
}
