import fc from 'fast-check';
import { object } from 'superstruct';
import type { Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { errorsOf } from './support.js';

const FIELDS = ['name', 'email', 'city', 'street_name', 'bio'] as const;

const schema = formSchema({
  struct: object(Object.fromEntries(FIELDS.map((field) => [field, text()])) as Record<(typeof FIELDS)[number], Struct<string, null>>),
  rules(v) {
    for (const field of FIELDS) v.field(field).required();
  },
});

/** Any text, often blank in one of the ways a browser or a person makes it blank. */
const value = fc.oneof(fc.string(), fc.constantFrom('', ' ', '\t', '\n \r\n', '\u00a0', '\u2003'), fc.string().map((s) => ` ${s} `));

describe('required text fields', () => {
  it('report exactly the missing and blank fields, once each', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record(Object.fromEntries(FIELDS.map((field) => [field, value])), { requiredKeys: [] }), async (input) => {
        const errors = await errorsOf(schema, input);
        const expected = FIELDS.filter((field) => (input[field] ?? '').trim() === '');
        expect(Object.keys(errors).sort()).toEqual([...expected].sort());
        for (const field of expected) expect(errors[field]).toEqual([`The ${field.replaceAll('_', ' ')} field is required.`]);
      }),
    );
  });
});
