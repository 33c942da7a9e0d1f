import { forbidden, notFound } from '@hapi/boom';
import type { Server } from '@hapi/hapi';
// Brings `h.file()` (the @hapi/inert plugin) into hapi's types.
import type {} from '@hapi/inert';
import { verifySignedPath } from '../../../domain/http/signed-urls/signed-url.js';
import { checkStorageKey } from '../../../domain/storage/storage-key.js';
import type { Clock } from '../../../ports/clock.js';
import type { Storage } from '../../../ports/storage.js';
import { PublicFiles, rangeFits } from '../kernel/public-files.js';
import { Download, mayShowInline } from '../kernel/replies.js';

/** Where the framework serves a local disk's temporary links (the storage adapter signs the same paths). */
export const TEMPORARY_LINK_PATH = '/_fw/storage';
export const LINK_INVALID = 'This link is invalid or has expired.';

export interface StorageRouteOptions {
  storage: Storage;
  /** Local public disks: the URL path their files are served under (`/storage`) and their folder. */
  publicFolders: readonly { urlPath: string; root: string }[];
  /** The key signed links are made with (derived from APP_KEY) and the clock that expires them. */
  signing: { key: Buffer; clock: Clock };
}

/**
 * Stage 4 of the pipeline, beside the public files: the local public disk's files under their
 * path, and the temporary links of local private disks. Both answer before sessions and
 * maintenance mode, like `public/`, so a signed link sent by mail works without a session.
 */
export function storageRoutes(server: Server, options: StorageRouteOptions): void {
  const plain = { state: { parse: false, failAction: 'ignore' as const } };
  for (const folder of options.publicFolders) {
    const prefix = folder.urlPath.replace(/\/+$/u, '');
    // The framework's public-file serving, over the disk's folder: confined, no hidden files
    // (a write in progress is a hidden file), Range, ETag and Last-Modified from inert.
    const files = new PublicFiles([folder.root], true);
    server.route({
      method: 'GET',
      path: `${prefix}/{key*}`,
      options: plain,
      handler: (request, h) => {
        const file = files.lookup(request.path.slice(prefix.length));
        if (file === null) throw notFound();
        if (!rangeFits(typeof request.headers['range'] === 'string' ? request.headers['range'] : undefined, file.size)) delete request.headers['range'];
        const response = h.file(file.absolutePath, { confine: false }).header('cache-control', 'public, max-age=0, must-revalidate');
        // An uploaded HTML or SVG file shown inline on the site's own origin could run script there.
        const entry: { type?: string } = request.server.mime.path(file.absolutePath);
        return mayShowInline(entry.type ?? '') ? response : response.header('content-disposition', 'attachment');
      },
    });
  }

  server.route({
    method: 'GET',
    path: `${TEMPORARY_LINK_PATH}/{disk}/{key*}`,
    options: plain,
    handler: async (request, h) => {
      const now = Math.floor(options.signing.clock.now().getTime() / 1000);
      // The request target exactly as sent: the signature covers the encoded path.
      if (verifySignedPath(request.raw.req.url ?? '', { now, key: options.signing.key }).kind !== 'valid') throw forbidden(LINK_INVALID);
      const name = String(request.params['disk'] ?? '');
      const key = checkStorageKey(request.params['key']);
      if (!options.storage.names.includes(name) || key.kind !== 'ok') throw notFound();
      const stored = await options.storage.disk(name).get(key.key);
      if (stored === null) throw notFound();
      const download = Download.stream(stored.stream, key.key, stored.contentType ?? 'application/octet-stream');
      return h
        .response(stored.stream)
        .type(download.contentType)
        .bytes(stored.size)
        .header('content-disposition', download.contentDisposition())
        .header('cache-control', 'private, no-store');
    },
  });
}
