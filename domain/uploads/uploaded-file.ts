/**
 * What the file rules (`image`, `mimes`, `dimensions`, `max(size)`) may know about an uploaded
 * file: facts read from its bytes when it arrived, never the client's word. The HTTP adapter's
 * `Upload` carries these; so can a file from a CSV import or a command. Pure data, so a rule
 * over it is a plain function.
 */
export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

export interface UploadedFile {
  /** The name the client sent, cut to its last path segment, without control characters. Shown, never used as a path. */
  readonly originalName: string;
  /** Bytes received. */
  readonly size: number;
  /** The media type sniffed from the first bytes (`image/png`); null when the bytes match no known type (plain text, CSV). */
  readonly sniffedType: string | null;
  /** The extension of the sniffed type (`png`, `jpg`); null with it. */
  readonly sniffedExtension: string | null;
  /** Width and height read from an image's header; null for anything that is not a raster image. */
  readonly dimensions: ImageDimensions | null;
}

/** The files whose facts code read from their bytes: what parsed input can never be. */
const vouched = new WeakSet<object>();

/**
 * Marks `file` as an uploaded file the file rules accept: the multipart adapter's `Upload`
 * does so, as would an import or a command that read a file's bytes. Without the mark a value
 * that only looks like one (a JSON body `{"avatar": {"originalName": "a.png", "size": 1,
 * "sniffedType": "image/png"}}`) is no file, so nobody passes `image` by typing its facts.
 */
export function vouchForUpload<T extends UploadedFile>(file: T): T {
  vouched.add(file);
  return file;
}

/** Whether a value is an uploaded file (a form field that held a file, not text or look-alike data). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null || !vouched.has(value)) return false;
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

/** `max(size)` for files: at most `kilobytes` KiB (Laravel counts file sizes in kilobytes of 1024 bytes). */
export function withinKilobytes(file: UploadedFile, kilobytes: number): boolean {
  return file.size <= kilobytes * 1024;
}
