import type { Lifecycle, Server } from '@hapi/hapi';

declare module '@hapi/hapi' {
  interface RouteOptionsApp {
    /** The route keeps the body's bytes (`payload.parse: 'gunzip'`); the framework parses them on demand. */
    fwRawBody?: boolean;
  }
}

/**
 * Registers, next to the catch-all route, a POST route per webhook path whose body hapi reads
 * but does not parse (only gzip/deflate is undone, as senders sign the uncompressed body), so
 * the signature can be checked against the bytes as sent. hapi's router prefers these more
 * specific routes; every request still goes to the same dispatcher, which matches it with the
 * app's own router, and the kernel's `RequestBody` parses the bytes when a handler asks for the body.
 */
export function rawBodyRoutes(server: Server, paths: readonly string[], options: { maxBytes: number; handler: Lifecycle.Method }): void {
  for (const path of paths) {
    server.route({
      method: 'POST',
      path,
      options: {
        app: { fwRawBody: true },
        payload: { maxBytes: options.maxBytes, output: 'data', parse: 'gunzip' },
      },
      handler: options.handler,
    });
  }
}

