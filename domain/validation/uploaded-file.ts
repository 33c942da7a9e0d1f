/**
 * What the file rules (`image`, `mimes`, `dimensions`, `max(size)`) need to know about an
 * upload. The multipart adapter's `Upload` values fill it; the rules never read the bytes:
 * the type is the one sniffed from the content (not the client's Content-Type), and the
 * image size is read from the header by the adapter that made the upload.
 */
export interface UploadedFile {
  readonly kind: 'upload';
  /** As the client named it; shown, never trusted. */
  readonly originalName: string;
  /** In bytes. */
  readonly size: number;
  /** Sniffed from the bytes (`image/png`); `application/octet-stream` when unknown. */
  readonly mimeType: string;
  /** Width and height from an image header; null for a file that is no (readable) image. */
  readonly imageSize: { readonly width: number; readonly height: number } | null;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return file['kind'] === 'upload' && typeof file['size'] === 'number' && typeof file['mimeType'] === 'string';
}

/** File name extensions the `mimes` rule accepts, by the sniffed type that proves them. */
export const MIME_TYPES_BY_EXTENSION: Readonly<Record<string, readonly string[]>> = {
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  bmp: ['image/bmp'],
  svg: ['image/svg+xml'],
  avif: ['image/avif'],
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  csv: ['text/csv', 'text/plain'],
  json: ['application/json'],
  zip: ['application/zip'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  mp3: ['audio/mpeg'],
  mp4: ['video/mp4'],
};

/** The types `image()` accepts (as Laravel: jpg, png, gif, bmp, svg, webp, plus avif). */
export const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/svg+xml', 'image/webp', 'image/avif'];

/** Bounds for `dimensions(...)`, built fluently: `new Dimensions().minWidth(100).ratio(3 / 2)`. */
export class Dimensions {
  constructor(
    readonly bounds: Readonly<{
      minWidth?: number;
      maxWidth?: number;
      minHeight?: number;
      maxHeight?: number;
      width?: number;
      height?: number;
      ratio?: number;
    }> = {},
  ) {}

  minWidth(n: number): Dimensions { return this.with({ minWidth: n }); }
  maxWidth(n: number): Dimensions { return this.with({ maxWidth: n }); }
  minHeight(n: number): Dimensions { return this.with({ minHeight: n }); }
  maxHeight(n: number): Dimensions { return this.with({ maxHeight: n }); }
  width(n: number): Dimensions { return this.with({ width: n }); }
  height(n: number): Dimensions { return this.with({ height: n }); }
  /** Width divided by height, e.g. `3 / 2`; compared to 1/100. */
  ratio(r: number): Dimensions { return this.with({ ratio: r }); }

  fits(size: { width: number; height: number }): boolean {
    const b = this.bounds;
    const { width, height } = size;
    if (b.width !== undefined && width !== b.width) return false;
    if (b.height !== undefined && height !== b.height) return false;
    if (b.minWidth !== undefined && width < b.minWidth) return false;
    if (b.maxWidth !== undefined && width > b.maxWidth) return false;
    if (b.minHeight !== undefined && height < b.minHeight) return false;
    if (b.maxHeight !== undefined && height > b.maxHeight) return false;
    if (b.ratio !== undefined && (height === 0 || Math.abs(width / height - b.ratio) > 0.01)) return false;
    return true;
  }

  private with(more: Dimensions['bounds']): Dimensions {
    return new Dimensions({ ...this.bounds, ...more });
  }
}
