import type { Lifecycle, Server } from '@hapi/hapi';
import type { Translator } from '../../../ports/translator.js';
import { bodyKind } from '../kernel/front.js';
import { DEFAULT_MULTIPART_LIMITS, MultipartError, parseMultipart, sweepStaleUploads } from './multipart.js';
import { uploadRefusal } from './upload-refusal.js';

export interface UploadStageOptions {
  /** UPLOAD_MAX_SIZE. */
  maxBytes: number;
  /** Where uploads wait while their request runs. */
  tempDir: string;
  /** The clock, to tell a crashed process's leftovers (an hour old) at start. */
  now: () => Date;
  /** The sentences of refusals in the visitor's language (by Accept-Language: no session is open yet); English without. */
  translator?: Translator;
}

/** Leftovers older than this are a crashed process's: no request runs an hour. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Puts the transport-neutral multipart parser in front of hapi's: for a multipart body on the
 * catch-all route (the returned method is that route's onPreAuth), the body is read here,
 * after routing and before hapi's own payload step, which skips a request whose payload is
 * already set (hapi's documented way to replace it).
 * Handlers then find text fields and `Upload` values in `ctx.body()`. The temporary files are
 * removed when the response is over (or the client went away). A refused body gets its status
 * and sentence (`The form is too large.`) with nothing left on disk.
 */
export function uploadStage(server: Server, options: UploadStageOptions): Lifecycle.Method {
  const limits = { ...DEFAULT_MULTIPART_LIMITS, maxBytes: options.maxBytes };
  server.ext('onPreStart', async () => {
    await sweepStaleUploads(options.tempDir, STALE_UPLOAD_MS, options.now());
  });
  // The catch-all route's own onPreAuth (the only route that takes forms): not an extension of
  // every route, which GET requests would pay for too.
  return async (request, h) => {
    if (request.method === 'get' || request.method === 'head' || bodyKind(request.headers) !== 'upload') return h.continue;
    // Webhook routes keep their bytes for the signature check.
    if (request.route.settings.app?.fwRawBody === true) return h.continue;
    try {
      const parsed = await parseMultipart(request.raw.req, request.headers, { tempDir: options.tempDir, limits });
      request.raw.res.once('close', () => void parsed.cleanup());
      // hapi's types mark `payload` read-only; its lifecycle reads a payload set here and skips parsing.
      (request as { payload: unknown }).payload = parsed.fields;
      return h.continue;
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      const header = request.headers['accept-language'];
      const message = uploadRefusal(error, options.translator, typeof header === 'string' ? header : null);
      return h.response(message).code(error.status).type('text/plain; charset=utf-8').takeover();
    }
  };
}
