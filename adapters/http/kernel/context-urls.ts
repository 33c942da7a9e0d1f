import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import { urlFor } from '../../../domain/http/routing/url.js';
import type { QueryValue } from '../../../domain/http/routing/url.js';
import { expiresAfter, signPath, signUrl, verifySignedPath, verifySignedUrl } from '../../../domain/http/signed-urls/signed-url.js';
import type { Clock } from '../../../ports/clock.js';
import { HttpAbort } from './http-error.js';
import type { RouteUrls } from './request-context.js';

/** What a request's URLs are made from: fixed when the kernel starts. */
export interface UrlServices {
  table: RouteTable<unknown>;
  appUrl: string;
  /** The key derived from APP_KEY for signed links, and the clock that says when they expire. */
  signing: { key: Buffer; clock: Clock };
}

/**
 * `ctx.urls`: the app's route URLs and signed links, and whether this request came through one.
 * Made on first use, so a request that builds no URL pays nothing for it.
 */
export class ContextUrls implements RouteUrls {
  constructor(
    private readonly services: UrlServices,
    /** The request target exactly as the client sent it: a signature covers the encoded path. */
    private readonly target: string,
  ) {}

  has(name: string): boolean {
    return this.services.table.named.has(name);
  }

  route(name: string, args: readonly (string | number)[] = [], query?: Record<string, unknown>): string {
    return urlFor(this.services.table, name, args, query as Record<string, QueryValue> | undefined);
  }

  absolute(name: string, args: readonly (string | number)[] = [], query?: Record<string, unknown>): string {
    return `${this.services.appUrl}${this.route(name, args, query)}`;
  }

  signed(name: string, args: readonly (string | number)[], ttlSeconds: number): string {
    return signUrl(this.services.appUrl, this.route(name, args), this.signing(ttlSeconds));
  }

  signPath(path: string, ttlSeconds: number): string {
    return signPath(path, this.signing(ttlSeconds));
  }

  hasValidSignature(): boolean {
    return verifySignedPath(this.target, { now: this.nowSeconds(), key: this.services.signing.key }).kind === 'valid';
  }

  requireValidSignature(): void {
    if (!this.hasValidSignature()) throw new HttpAbort(403, 'This link is invalid or has expired.');
  }

  verify(url: string): boolean {
    const basePath = new URL(this.services.appUrl).pathname.replace(/\/+$/u, '');
    return verifySignedUrl(url, { now: this.nowSeconds(), key: this.services.signing.key, basePath });
  }

  private nowSeconds(): number {
    return Math.floor(this.services.signing.clock.now().getTime() / 1000);
  }

  private signing(ttlSeconds: number): { expiresAt: number; key: Buffer } {
    return { expiresAt: expiresAfter(this.nowSeconds(), ttlSeconds), key: this.services.signing.key };
  }
}
