import Boom from '@hapi/boom';
import type { Request } from '@hapi/hapi';
import { hostAllowed } from '../../../../domain/http/trusted-hosts.js';
import type { TrustedHosts } from '../../../../domain/http/trusted-hosts.js';

/**
 * With TRUSTED_HOSTS set, a request for any other Host is answered 400 before anything else
 * runs: links in mails and redirects are built from the Host, so a forged one must never reach
 * a handler. APP_URL's host is always allowed, and `/health` answers whatever the Host (load
 * balancers probe by address). Run after the request id (front-exts.ts), so the 400 page
 * carries it. Null: the request goes on.
 */
export function refuseUntrustedHost(request: Request, trusted: TrustedHosts): Boom.Boom | null {
  if (trusted.anyHost || request.path === '/health') return null;
  // The host the request is for: an absolute-form target's authority (RFC 9112 §3.2.2: it
  // wins over the Host header), else the Host header. Routing reads the same value.
  const host = request.info.host;
  if (hostAllowed(trusted, host === '' ? undefined : host)) return null;
  return Boom.badRequest('This site is not served under that host name.');
}
