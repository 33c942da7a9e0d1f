/**
 * What the file rules (`image`, `mimes`, `dimensions`, `max(size)`) may know about an upload:
 * facts read from its bytes when it arrived, never the client's word. The multipart adapter's
 * `Upload` values carry them (structurally: any value of this shape is judged).
 *
 * Coordination note: this interface and its helpers have the same shape and meaning as
 * `domain/uploads/uploaded-file.ts` of the uploads work (branch `storage`), which defines
 * `Upload`; when both are merged, this file becomes a re-export of that one.
 */
export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

export interface UploadedFile {
  /** The name the client sent; shown, never used as a path. */
  readonly originalName: string;
  /** Bytes received. */
  readonly size: number;
  /** The media type sniffed from the first bytes (`image/png`); null when the bytes match no known type. */
  readonly sniffedType: string | null;
  /** The extension of the sniffed type (`png`, `jpg`); null with it. */
  readonly sniffedExtension: string | null;
  /** Width and height read from an image's header; null for anything that is not a raster image. */
  readonly dimensions: ImageDimensions | null;
}

/** Whether a value is an uploaded file (a form field that held a file, not text). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<Record<keyof UploadedFile, unknown>>;
  return typeof file.originalName === 'string' && typeof file.size === 'number' && (file.sniffedType === null || typeof file.sniffedType === 'string');
}

/** Laravel's `image` rule: jpg, png, gif, bmp, webp, by their bytes. SVG is not one: it carries script. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp']);

export function isImage(file: UploadedFile): boolean {
  return file.sniffedType !== null && IMAGE_TYPES.has(file.sniffedType);
}

/** Names that mean the same sniffed extension (`mimes('jpeg')` accepts what sniffs as `jpg`). */
const SAME_EXTENSION: Readonly<Record<string, string>> = { jpeg: 'jpg', jpe: 'jpg', tiff: 'tif', htm: 'html', mpeg: 'mpg' };

function canonicalExtension(extension: string): string {
  const lower = extension.trim().toLowerCase().replace(/^\./u, '');
  return SAME_EXTENSION[lower] ?? lower;
}

/**
 * `mimes('jpg', 'png', 'pdf')`: the sniffed type is one of these, by extension or by full
 * media type (`application/pdf`, `image/*`). A file whose bytes match no known type matches
 * only `txt` and `csv`, which have no signature to sniff.
 */
export function matchesTypes(file: UploadedFile, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    const wanted = entry.trim().toLowerCase();
    if (wanted.includes('/')) {
      if (file.sniffedType === null) continue;
      if (wanted.endsWith('/*') ? file.sniffedType.startsWith(wanted.slice(0, -1)) : file.sniffedType === wanted) return true;
      continue;
    }
    const extension = canonicalExtension(wanted);
    if (file.sniffedExtension === null ? extension === 'txt' || extension === 'csv' : canonicalExtension(file.sniffedExtension) === extension) return true;
  }
  return false;
}

/** The `dimensions` rule's constraints (Laravel's names, in TypeScript's case). */
export interface DimensionConstraints {
  readonly width?: number;
  readonly height?: number;
  readonly minWidth?: number;
  readonly maxWidth?: number;
  readonly minHeight?: number;
  readonly maxHeight?: number;
  /** width / height, e.g. 3 / 2; compared with a tolerance of 1/1000. */
  readonly ratio?: number;
}

/** Whether an image's header dimensions meet every constraint; a file with no dimensions meets none. */
export function fitsDimensions(file: UploadedFile, constraints: DimensionConstraints): boolean {
  const size = file.dimensions;
  if (size === null) return false;
  const { width, height } = size;
  if (constraints.width !== undefined && width !== constraints.width) return false;
  if (constraints.height !== undefined && height !== constraints.height) return false;
  if (constraints.minWidth !== undefined && width < constraints.minWidth) return false;
  if (constraints.maxWidth !== undefined && width > constraints.maxWidth) return false;
  if (constraints.minHeight !== undefined && height < constraints.minHeight) return false;
  if (constraints.maxHeight !== undefined && height > constraints.maxHeight) return false;
  if (constraints.ratio !== undefined && (height === 0 || Math.abs(width / height - constraints.ratio) > 1 / 1000)) return false;
  return true;
}

/**
 * The spec's `Dimensions::new().min_width(n)` as a builder: `new Dimensions().minWidth(100).ratio(3 / 2)`.
 * A plain `DimensionConstraints` object works as well.
 */
export class Dimensions {
  constructor(readonly constraints: DimensionConstraints = {}) {}

  minWidth(n: number): Dimensions { return this.with({ minWidth: n }); }
  maxWidth(n: number): Dimensions { return this.with({ maxWidth: n }); }
  minHeight(n: number): Dimensions { return this.with({ minHeight: n }); }
  maxHeight(n: number): Dimensions { return this.with({ maxHeight: n }); }
  width(n: number): Dimensions { return this.with({ width: n }); }
  height(n: number): Dimensions { return this.with({ height: n }); }
  ratio(r: number): Dimensions { return this.with({ ratio: r }); }

  private with(more: DimensionConstraints): Dimensions {
    return new Dimensions({ ...this.constraints, ...more });
  }
}
