import type { ImageDimensions } from '../../../domain/uploads/uploaded-file.js';

export interface FileFacts {
  sniffedType: string | null;
  sniffedExtension: string | null;
  dimensions: ImageDimensions | null;
}

/** Raster types whose header gives a size worth trusting (SVG is text and is never sniffed as an image). */
const SIZED_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp', 'image/tiff', 'image/avif', 'image/heic', 'image/x-icon', 'image/vnd.microsoft.icon']);

/**
 * Width and height from an image file's header alone (image-size reads the first bytes, and a
 * JPEG's segments up to its frame header), never the whole file: a huge image costs no memory.
 * Null when the header is not an image's or is damaged.
 */
export async function readImageDimensions(path: string): Promise<ImageDimensions | null> {
  try {
    // Loaded on the first upload, not at start: an app without uploads does not carry them.
    const { imageSizeFromFile } = await import('image-size/fromFile');
    const size = await imageSizeFromFile(path);
    // EXIF orientations 5-8 turn the picture a quarter: what a viewer shows is the other way round.
    const turned = size.orientation !== undefined && size.orientation >= 5;
    const width = turned ? size.height : size.width;
    const height = turned ? size.width : size.height;
    return Number.isSafeInteger(width) && Number.isSafeInteger(height) ? { width, height } : null;
  } catch {
    return null;
  }
}

/** What a file is, from its bytes (file-type reads the signature at its start), and an image's size from its header. */
export async function readFileFacts(path: string): Promise<FileFacts> {
  const { fileTypeFromFile } = await import('file-type');
  const type = await fileTypeFromFile(path).catch(() => undefined);
  const sniffedType = type?.mime ?? null;
  return {
    sniffedType,
    sniffedExtension: type?.ext ?? null,
    dimensions: sniffedType !== null && SIZED_TYPES.has(sniffedType) ? await readImageDimensions(path) : null,
  };
}
