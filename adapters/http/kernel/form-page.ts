import { matchRoute } from '../../../domain/http/routing/match.js';
import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import { sameSiteTarget } from '../../../domain/http/same-site.js';

/**
 * Where `back()` goes from a form post that came without a Referer (browsers with
 * `Referrer-Policy: no-referrer`, privacy extensions): the page at the post's own address when
 * the app has one (`GET /login` for `POST /login`, `GET /register` for `POST /register`), which is
 * where such forms are, so a failed form shows its errors again instead of landing on `/`.
 * It reads nothing but the request and the route table: no session write on page views (which
 * keeping the previous URL in the session would cost), and the answer is a path of this site by
 * construction, checked by `sameSiteTarget` all the same. GET and HEAD get null: going back to
 * the page that asked would loop.
 */
export function formPageOf<H>(table: RouteTable<H>, request: { method: string; host: string; path: string }): string | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const match = matchRoute(table, { method: 'GET', host: request.host, path: request.path });
  return match.kind === 'matched' ? sameSiteTarget(request.path, []) : null;
}
