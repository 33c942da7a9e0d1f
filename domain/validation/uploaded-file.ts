/**
 * What the file rules (`image`, `mimes`, `dimensions`, `max(size)`) may know about an upload:
 * the facts of `domain/uploads/uploaded-file.ts` (read from its bytes when it arrived, never the
 * client's word), which the multipart adapter's `Upload` values carry. One definition, re-exported
 * here for the rules; the `Dimensions` builder below is the rules' own.
 */
import type { DimensionConstraints } from '../uploads/uploaded-file.js';

export { fitsDimensions, isImage, isUploadedFile, matchesTypes, vouchForUpload } from '../uploads/uploaded-file.js';
export type { DimensionConstraints, ImageDimensions, UploadedFile } from '../uploads/uploaded-file.js';

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
