import { Struct } from 'superstruct';
import { Upload } from './upload.js';

/**
 * The form field of a file input, for a form's struct: `object({ photo: uploadField() })`. An
 * empty input (no file chosen) is `undefined`, so `required()` speaks; the file rules (`image`,
 * `mimes`, `dimensions`, `max`) then judge the `Upload`'s facts. Text sent where a file was
 * expected fails the struct, like a number field given words.
 */
export function uploadField(): Struct<Upload | undefined, null> {
  return new Struct<Upload | undefined, null>({
    type: 'upload',
    schema: null,
    coercer: (value) => (value === '' || value === null ? undefined : value),
    validator: (value) => value === undefined || value instanceof Upload,
  });
}
