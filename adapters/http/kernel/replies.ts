/**
 * What a handler returns. Each reply is a small value; the kernel turns it into a response in
 * one place (`hapi/send-reply.ts`). Plain strings are HTML, plain objects and arrays are JSON,
 * and `combine(primary, ...extras)` adds toasts, cookies and partial-update headers.
 */
import { checkStorageKey } from '../../../domain/storage/storage-key.js';
import type { Storage, StorageDisk } from '../../../ports/storage.js';
import type { SetCookie } from './cookies.js';
import { HttpAbort } from './http-error.js';
import { MisuseError } from '../../../domain/shared/errors.js';

/** Where an out-of-band piece goes (htmx's swap styles that use the piece's content). */
export type OobSwap = 'innerHTML' | 'beforeend' | 'afterbegin' | 'beforebegin' | 'afterend';

/** A piece of a partial-update answer for another place of the page: `View.also(...)`. */
export interface OobPiece {
  /** A CSS selector of the element(s) on the page, e.g. `#cart-count`. */
  readonly target: string;
  readonly view: View;
  readonly swap: OobSwap;
}

export class View {
  private constructor(
    readonly template: string,
    readonly data: Record<string, unknown>,
    readonly block: string | null,
    readonly status: number,
    readonly pieces: readonly OobPiece[] = [],
  ) {}

  /** A page rendered from `template` with the view globals plus `data`. */
  static make(template: string, data: Record<string, unknown> = {}): View {
    return new View(template, data, null, 200);
  }

  /** Only this `{% block %}` of the template: the answer to a partial-update request. */
  fragment(block: string): View {
    return new View(this.template, this.data, block, this.status, this.pieces);
  }

  withStatus(status: number): View {
    return new View(this.template, this.data, this.block, status, this.pieces);
  }

  /**
   * An out-of-band piece: with a partial-update request, `piece` is rendered too and htmx puts
   * it into the page's element(s) matching `target` (`hx-swap-oob`), besides the main answer:
   * `View.make('cart.html', data).fragment('line').also('#cart-count', View.make('cart.html', data).fragment('count'))`.
   * A full page (an ordinary request) leaves the pieces out: it has them in place already.
   * The piece's HTML is flow content (wrapped in a `<div>` on the wire): table rows need their table.
   */
  also(target: string, piece: View, swap: OobSwap = 'innerHTML'): View {
    if (target.trim() === '') throw new MisuseError('http.bad-reply', 'View.also needs the selector of the element to update');
    return new View(this.template, this.data, this.block, this.status, [...this.pieces, { target, view: piece, swap }]);
  }
}

export type RedirectTarget =
  | { kind: 'path'; path: string }
  | { kind: 'route'; name: string; args: readonly (string | number)[]; query: Record<string, unknown> | undefined }
  | { kind: 'intended'; fallback: string }
  | { kind: 'back' };

/** Redirects answer 303 (See Other): the browser follows with GET, whatever the form's method. */
export class Redirect {
  private constructor(
    readonly target: RedirectTarget,
    readonly status: 301 | 302 | 303,
  ) {}

  /** To a path of this site or an absolute URL. */
  static to(path: string): Redirect {
    return new Redirect({ kind: 'path', path }, 303);
  }

  /** To a named route; arguments fill its blanks in order. */
  static route(name: string, args: readonly (string | number)[] = [], query?: Record<string, unknown>): Redirect {
    return new Redirect({ kind: 'route', name, args, query }, 303);
  }

  /** To the page a guard sent the visitor away from (once, same site only), else `fallback`. */
  static intended(fallback = '/'): Redirect {
    return new Redirect({ kind: 'intended', fallback }, 303);
  }

  /** To the Referer when it is on this site, else `/`. */
  static back(): Redirect {
    return new Redirect({ kind: 'back' }, 303);
  }

  withStatus(status: 301 | 302 | 303): Redirect {
    return new Redirect(this.target, status);
  }
}

export class JsonReply {
  constructor(
    readonly data: unknown,
    readonly status = 200,
  ) {}
}

export class TextReply {
  constructor(
    readonly text: string,
    readonly status = 200,
    readonly contentType = 'text/plain; charset=utf-8',
  ) {}
}

export class StatusReply {
  constructor(readonly status: number) {}
}

export const json = (data: unknown, status = 200) => new JsonReply(data, status);
export const text = (body: string, status = 200) => new TextReply(body, status);
export const html = (body: string, status = 200) => new TextReply(body, status, 'text/html; charset=utf-8');
export const status = (code: number) => new StatusReply(code);

/**
 * Types a browser would run or render as a page of this site: always downloaded, never inline.
 * Matched on the media type alone, trimmed: the list of exact names let through every other
 * XML type (`application/rss+xml`, `application/atom+xml`, `text/xsl`, `application/mathml+xml`,
 * which browsers render and may script) and `application/x-javascript`, and ` text/html` with a space.
 */
const NEVER_INLINE = /html|xml|xsl|javascript|ecmascript|jscript/iu;

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim();
}

/** Whether a browser may show this type inline on the site's origin (not HTML, XML, SVG, JavaScript). */
export function mayShowInline(contentType: string): boolean {
  return !NEVER_INLINE.test(mediaType(contentType));
}

/** Where a download's bytes come from: in memory, a file on disk (streamed), or a stream. */
export type DownloadSource =
  | { kind: 'bytes'; body: Uint8Array | string }
  | { kind: 'file'; path: string }
  | { kind: 'stream'; stream: NodeJS.ReadableStream };

export class Download {
  private constructor(
    readonly source: DownloadSource,
    readonly filename: string,
    readonly contentType: string,
    readonly disposition: 'attachment' | 'inline',
  ) {}

  static bytes(body: Uint8Array | string, filename: string, contentType = 'application/octet-stream'): Download {
    return new Download({ kind: 'bytes', body }, filename, contentType, 'attachment');
  }

  /** A file on disk, streamed; the name shown defaults to the file's own. A missing file answers 404. */
  static file(path: string, filename?: string, contentType = 'application/octet-stream'): Download {
    return new Download({ kind: 'file', path }, filename ?? path.split(/[\\/]/u).pop() ?? 'download', contentType, 'attachment');
  }

  /** Bytes made while they are sent (an export, a report). */
  static stream(stream: NodeJS.ReadableStream, filename: string, contentType = 'application/octet-stream'): Download {
    return new Download({ kind: 'stream', stream }, filename, contentType, 'attachment');
  }

  /**
   * A file from a storage disk, streamed: `await Download.fromStorage(disk, 'reports/jan.pdf')`
   * (or the app's `Storage`, meaning its default disk, FILESYSTEM_DISK).
   * The name shown defaults to the key's last segment; the type is the caller's, else the one
   * the disk kept (S3), else `application/octet-stream`. A missing key answers 404; an unsafe
   * one (`../x`) too, as a visitor may have typed it.
   */
  static async fromStorage(from: StorageDisk | Storage, key: string, options: { filename?: string; contentType?: string } = {}): Promise<Download> {
    if (checkStorageKey(key).kind !== 'ok') throw new HttpAbort(404, '');
    const disk = 'get' in from ? from : from.default;
    const stored = await disk.get(key);
    if (stored === null) throw new HttpAbort(404, '');
    const contentType = options.contentType ?? stored.contentType ?? 'application/octet-stream';
    return new Download({ kind: 'stream', stream: stored.stream }, options.filename ?? key.split('/').pop() ?? 'download', contentType, 'attachment');
  }

  /** The bytes of a `Download.bytes`; undefined for files and streams. */
  get body(): Uint8Array | string | undefined {
    return this.source.kind === 'bytes' ? this.source.body : undefined;
  }

  /** Shown in the browser, except HTML, XML, SVG and JavaScript, which stay downloads. */
  inline(): Download {
    return new Download(this.source, this.filename, this.contentType, mayShowInline(this.contentType) ? 'inline' : 'attachment');
  }

  /** `Content-Disposition` with a filename no browser can misread as a path or a header. */
  contentDisposition(): string {
    const base = this.filename.split(/[\\/]/u).pop() ?? '';
    const ascii = base.replace(/[^\x20-\x7e]/gu, '_').replace(/["\\;%]/gu, '_').trim() || 'download';
    const encoded = encodeURIComponent(base).replace(/['()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    return `${this.disposition}; filename="${ascii}"; filename*=UTF-8''${encoded || 'download'}`;
  }
}

export type ToastLevel = 'success' | 'error' | 'info' | 'warning';

/** A short message shown with the response, or on the next page after a redirect. */
export class Toast {
  private constructor(
    readonly level: ToastLevel,
    readonly message: string,
  ) {}

  static success(message: string): Toast {
    return new Toast('success', message);
  }

  static error(message: string): Toast {
    return new Toast('error', message);
  }

  static info(message: string): Toast {
    return new Toast('info', message);
  }

  static warning(message: string): Toast {
    return new Toast('warning', message);
  }

  /** A toast of a level chosen elsewhere (a use case's notice). */
  static of(level: ToastLevel, message: string): Toast {
    return new Toast(level, message);
  }
}

/** A response header of the partial-update protocol (htmx's `HX-*` headers). */
export class HxHeader {
  private constructor(
    readonly name: string,
    readonly value: string,
  ) {}

  static redirect(url: string): HxHeader {
    return new HxHeader('HX-Redirect', url);
  }

  static refresh(): HxHeader {
    return new HxHeader('HX-Refresh', 'true');
  }

  static trigger(event: string | Record<string, unknown>): HxHeader {
    return new HxHeader('HX-Trigger', typeof event === 'string' ? event : JSON.stringify(event));
  }

  static retarget(selector: string): HxHeader {
    return new HxHeader('HX-Retarget', selector);
  }

  static reswap(swap: string): HxHeader {
    return new HxHeader('HX-Reswap', swap);
  }

  static pushUrl(url: string | false): HxHeader {
    return new HxHeader('HX-Push-Url', url === false ? 'false' : url);
  }
}

/** Any response header to add: `combine(json(data), Header.make('Cache-Control', 'no-store'))`. */
export class Header {
  private constructor(
    readonly name: string,
    readonly value: string,
  ) {}

  static make(name: string, value: string): Header {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/u.test(name)) throw new MisuseError('http.bad-reply', `"${name}" is not a valid header name`);
    return new Header(name, value);
  }
}

export type Extra = Toast | SetCookie | HxHeader | Header;

/** A response plus what goes with it: `combine(Redirect.to('/'), Toast.success('Saved'))`. */
export class Combined {
  constructor(
    readonly primary: Reply,
    readonly extras: readonly Extra[],
  ) {}
}

export function combine(primary: Reply, ...extras: Extra[]): Combined {
  return new Combined(primary, extras);
}

/** A reply with more extras: added to those of a `Combined`, or combined with a plain reply. */
export function withExtras(reply: Reply, ...extras: Extra[]): Reply {
  return reply instanceof Combined ? new Combined(reply.primary, [...reply.extras, ...extras]) : new Combined(reply, extras);
}

export type Reply =
  | View
  | Redirect
  | JsonReply
  | TextReply
  | StatusReply
  | Download
  | Combined
  | string
  | number
  | boolean
  | null
  | Record<string, unknown>
  | readonly unknown[];
