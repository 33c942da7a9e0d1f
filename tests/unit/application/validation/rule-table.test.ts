/**
 * Every row of spec 002's validation table, by name: a value that passes, one that fails, and
 * the failure's message in English and in German (the shipped languages).
 */
import { describe, expect, it } from 'vitest';
import type { Validator } from '../../../../application/validation/validator.js';
import type { FieldRules } from '../../../../application/validation/field-rules.js';
import { defineRule } from '../../../../domain/validation/rules.js';
import { Dimensions } from '../../../../domain/validation/uploaded-file.js';
import type { UploadedFile } from '../../../../domain/validation/uploaded-file.js';
import { vouchForUpload } from '../../../../domain/validation/uploaded-file.js';
import { english, german } from '../../../support/lang.js';
import { errorsOf } from './support.js';

interface Row {
  rules: (v: Validator) => void;
  pass: Record<string, unknown>;
  fail: Record<string, unknown>;
  /** The field the error lands on; `x` unless said. */
  field?: string;
  en: string;
  de: string;
}

const x = (chain: (rules: FieldRules) => void) => (v: Validator) => chain(v.field('x'));

const upload = (overrides: Partial<UploadedFile>): UploadedFile =>
  vouchForUpload({
    originalName: 'photo.png',
    size: 2048,
    sniffedType: 'image/png',
    sniffedExtension: 'png',
    dimensions: { width: 100, height: 50 },
    ...overrides,
  });
const png = upload({});
// Named .png by the client, but its bytes are a PDF: the rules go by the bytes.
const pdf = upload({ originalName: 'photo.png', sniffedType: 'application/pdf', sniffedExtension: 'pdf', dimensions: null });

/** Groups and rule names exactly as the spec's table lists them. */
const TABLE: Record<string, Record<string, Row>> = {
  presence: {
    required: { rules: x((r) => r.required()), pass: { x: 'a' }, fail: {}, en: 'The x field is required.', de: 'Das Feld x ist erforderlich.' },
    required_if: {
      rules: x((r) => r.requiredIf({ field: 'kind', is: ['company'] })),
      pass: { kind: 'company', x: 'ACME' },
      fail: { kind: 'company' },
      en: 'The x field is required when kind is company.',
      de: 'Das Feld x ist erforderlich, wenn kind company ist.',
    },
    required_unless: {
      rules: x((r) => r.requiredUnless({ field: 'kind', is: ['person'] })),
      pass: { kind: 'person' },
      fail: { kind: 'company' },
      en: 'The x field is required unless kind is in person.',
      de: 'Das Feld x ist erforderlich, außer kind ist person.',
    },
    required_with: {
      rules: x((r) => r.requiredWith('phone')),
      pass: { phone: '1', x: 'a' },
      fail: { phone: '1' },
      en: 'The x field is required when phone is present.',
      de: 'Das Feld x ist erforderlich, wenn phone angegeben ist.',
    },
    required_with_all: {
      rules: x((r) => r.requiredWithAll(['a', 'b'])),
      pass: { a: '1' },
      fail: { a: '1', b: '2' },
      en: 'The x field is required when a / b are present.',
      de: 'Das Feld x ist erforderlich, wenn a / b angegeben sind.',
    },
    required_without: {
      rules: x((r) => r.requiredWithout('email')),
      pass: { email: 'e' },
      fail: {},
      en: 'The x field is required when email is not present.',
      de: 'Das Feld x ist erforderlich, wenn email nicht angegeben ist.',
    },
    prohibited: { rules: x((r) => r.prohibited()), pass: {}, fail: { x: 'a' }, en: 'The x field is prohibited.', de: 'Das Feld x ist nicht erlaubt.' },
    prohibited_if: {
      rules: x((r) => r.prohibitedIf({ field: 'kind', is: ['person'] })),
      pass: { kind: 'company', x: 'a' },
      fail: { kind: 'person', x: 'a' },
      en: 'The x field is prohibited when kind is person.',
      de: 'Das Feld x ist nicht erlaubt, wenn kind person ist.',
    },
    prohibits: {
      rules: x((r) => r.prohibits('y')),
      pass: { x: 'a' },
      fail: { x: 'a', y: 'b' },
      en: 'The x field prohibits y from being present.',
      de: 'Das Feld x verbietet die Angabe von y.',
    },
    accepted: { rules: x((r) => r.accepted()), pass: { x: 'on' }, fail: { x: 'no' }, en: 'The x field must be accepted.', de: 'Das Feld x muss akzeptiert werden.' },
    declined: { rules: x((r) => r.declined()), pass: { x: 'no' }, fail: { x: 'yes' }, en: 'The x field must be declined.', de: 'Das Feld x muss abgelehnt werden.' },
  },
  'size and compare': {
    min: { rules: x((r) => r.min(3)), pass: { x: 'abc' }, fail: { x: 'ab' }, en: 'The x field must be at least 3 characters.', de: 'Das Feld x muss mindestens 3 Zeichen lang sein.' },
    max: { rules: x((r) => r.max(2)), pass: { x: 'ab' }, fail: { x: 'abc' }, en: 'The x field must not be greater than 2 characters.', de: 'Das Feld x darf maximal 2 Zeichen lang sein.' },
    size: { rules: x((r) => r.size(3)), pass: { x: 'abc' }, fail: { x: 'ab' }, en: 'The x field must be 3 characters.', de: 'Das Feld x muss genau 3 Zeichen lang sein.' },
    between: {
      rules: x((r) => r.between(2, 3)),
      pass: { x: 'ab' },
      fail: { x: 'a' },
      en: 'The x field must be between 2 and 3 characters.',
      de: 'Das Feld x muss zwischen 2 und 3 Zeichen lang sein.',
    },
    gt: { rules: x((r) => r.gt('y')), pass: { x: 5, y: 4 }, fail: { x: 4, y: 4 }, en: 'The x field must be greater than 4.', de: 'Das Feld x muss größer als 4 sein.' },
    gte: { rules: x((r) => r.gte(5)), pass: { x: 5 }, fail: { x: 4 }, en: 'The x field must be greater than or equal to 5.', de: 'Das Feld x muss größer oder gleich 5 sein.' },
    lt: { rules: x((r) => r.lt('y')), pass: { x: 3, y: 4 }, fail: { x: 4, y: 4 }, en: 'The x field must be less than 4.', de: 'Das Feld x muss kleiner als 4 sein.' },
    lte: { rules: x((r) => r.lte(5)), pass: { x: 5 }, fail: { x: 6 }, en: 'The x field must be less than or equal to 5.', de: 'Das Feld x muss kleiner oder gleich 5 sein.' },
    same: { rules: x((r) => r.same('y')), pass: { x: 'a', y: 'a' }, fail: { x: 'a', y: 'b' }, en: 'The x field must match y.', de: 'Das Feld x muss mit y übereinstimmen.' },
    different: {
      rules: x((r) => r.different('y')),
      pass: { x: 'a', y: 'b' },
      fail: { x: 'a', y: 'a' },
      en: 'The x field and y must be different.',
      de: 'Das Feld x und y müssen sich unterscheiden.',
    },
    confirmed: {
      rules: x((r) => r.confirmed()),
      pass: { x: 'a', x_confirmation: 'a' },
      fail: { x: 'a' },
      en: 'The x field confirmation does not match.',
      de: 'Die Bestätigung für x stimmt nicht überein.',
    },
    one_of: { rules: x((r) => r.oneOf(['a', 'b'])), pass: { x: 'a' }, fail: { x: 'c' }, en: 'The selected x is invalid.', de: 'Die Auswahl für x ist ungültig.' },
    none_of: { rules: x((r) => r.noneOf(['admin'])), pass: { x: 'ada' }, fail: { x: 'admin' }, en: 'The selected x is invalid.', de: 'Die Auswahl für x ist ungültig.' },
    distinct: {
      rules: x((r) => r.distinct()),
      pass: { x: ['a', 'b'] },
      fail: { x: ['a', 'a'] },
      en: 'The x field has a duplicate value.',
      de: 'Das Feld x enthält einen doppelten Wert.',
    },
  },
  text: {
    email: {
      rules: x((r) => r.email()),
      pass: { x: 'ada@example.com' },
      fail: { x: 'ada' },
      en: 'The x field must be a valid email address.',
      de: 'Das Feld x muss eine gültige E-Mail-Adresse sein.',
    },
    url: { rules: x((r) => r.url()), pass: { x: 'https://example.com/a?b=1' }, fail: { x: 'example com' }, en: 'The x field must be a valid URL.', de: 'Das Feld x muss eine gültige URL sein.' },
    matches: { rules: x((r) => r.matches(/^\d+$/u)), pass: { x: '123' }, fail: { x: 'a1' }, en: 'The x field format is invalid.', de: 'Das Format von x ist ungültig.' },
    not_matches: { rules: x((r) => r.notMatches(/admin/u)), pass: { x: 'ada' }, fail: { x: 'admin1' }, en: 'The x field format is invalid.', de: 'Das Format von x ist ungültig.' },
    alpha: { rules: x((r) => r.alpha()), pass: { x: 'Ärger' }, fail: { x: 'abc1' }, en: 'The x field must only contain letters.', de: 'Das Feld x darf nur Buchstaben enthalten.' },
    alpha_num: {
      rules: x((r) => r.alphaNum()),
      pass: { x: 'abc1' },
      fail: { x: 'abc-1' },
      en: 'The x field must only contain letters and numbers.',
      de: 'Das Feld x darf nur Buchstaben und Ziffern enthalten.',
    },
    alpha_dash: {
      rules: x((r) => r.alphaDash()),
      pass: { x: 'abc-1_d' },
      fail: { x: 'abc 1' },
      en: 'The x field must only contain letters, numbers, dashes, and underscores.',
      de: 'Das Feld x darf nur Buchstaben, Ziffern, Binde- und Unterstriche enthalten.',
    },
    lowercase: { rules: x((r) => r.lowercase()), pass: { x: 'abc' }, fail: { x: 'aBc' }, en: 'The x field must be lowercase.', de: 'Das Feld x muss in Kleinbuchstaben geschrieben sein.' },
    uppercase: { rules: x((r) => r.uppercase()), pass: { x: 'ABC' }, fail: { x: 'AbC' }, en: 'The x field must be uppercase.', de: 'Das Feld x muss in Großbuchstaben geschrieben sein.' },
    starts_with: {
      rules: x((r) => r.startsWith('https://', 'mailto:')),
      pass: { x: 'mailto:a' },
      fail: { x: 'http://a' },
      en: 'The x field must start with one of the following: https://, mailto:.',
      de: 'Das Feld x muss mit einem der folgenden Werte beginnen: https://, mailto:.',
    },
    ends_with: {
      rules: x((r) => r.endsWith('.com')),
      pass: { x: 'a.com' },
      fail: { x: 'a.de' },
      en: 'The x field must end with one of the following: .com.',
      de: 'Das Feld x muss mit einem der folgenden Werte enden: .com.',
    },
    ascii: {
      rules: x((r) => r.ascii()),
      pass: { x: 'abc!' },
      fail: { x: 'äbc' },
      en: 'The x field must only contain single-byte alphanumeric characters and symbols.',
      de: 'Das Feld x darf nur ASCII-Zeichen enthalten.',
    },
    uuid: {
      rules: x((r) => r.uuid()),
      pass: { x: '123e4567-e89b-12d3-a456-426614174000' },
      fail: { x: '123e4567' },
      en: 'The x field must be a valid UUID.',
      de: 'Das Feld x muss eine gültige UUID sein.',
    },
    ulid: {
      rules: x((r) => r.ulid()),
      pass: { x: '01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      fail: { x: '01ARZ3NDEKTSV4RRFFQ69G5FA' },
      en: 'The x field must be a valid ULID.',
      de: 'Das Feld x muss eine gültige ULID sein.',
    },
    ip: { rules: x((r) => r.ip()), pass: { x: '::1' }, fail: { x: '256.1.1.1' }, en: 'The x field must be a valid IP address.', de: 'Das Feld x muss eine gültige IP-Adresse sein.' },
    mac_address: {
      rules: x((r) => r.macAddress()),
      pass: { x: '00:1A:2B:3C:4D:5E' },
      fail: { x: '00:1A:2B' },
      en: 'The x field must be a valid MAC address.',
      de: 'Das Feld x muss eine gültige MAC-Adresse sein.',
    },
    json: { rules: x((r) => r.json()), pass: { x: '{"a":1}' }, fail: { x: '{a:1}' }, en: 'The x field must be a valid JSON string.', de: 'Das Feld x muss gültiges JSON sein.' },
    timezone: {
      rules: x((r) => r.timezone()),
      pass: { x: 'Europe/Berlin' },
      fail: { x: 'Mars/Olympus' },
      en: 'The x field must be a valid timezone.',
      de: 'Das Feld x muss eine gültige Zeitzone sein.',
    },
    hex_color: {
      rules: x((r) => r.hexColor()),
      pass: { x: '#ff8800' },
      fail: { x: '#ggg' },
      en: 'The x field must be a valid hexadecimal color.',
      de: 'Das Feld x muss eine gültige Hexadezimalfarbe sein.',
    },
  },
  numbers: {
    numeric: { rules: x((r) => r.numeric()), pass: { x: '12.5' }, fail: { x: '12a' }, en: 'The x field must be a number.', de: 'Das Feld x muss eine Zahl sein.' },
    integer: { rules: x((r) => r.integer()), pass: { x: '42' }, fail: { x: '4.2' }, en: 'The x field must be an integer.', de: 'Das Feld x muss eine ganze Zahl sein.' },
    decimal: { rules: x((r) => r.decimal(2)), pass: { x: '9.99' }, fail: { x: '9.9' }, en: 'The x field must have 2 decimal places.', de: 'Das Feld x muss 2 Nachkommastellen haben.' },
    digits: { rules: x((r) => r.digits(4)), pass: { x: '1234' }, fail: { x: '123' }, en: 'The x field must be 4 digits.', de: 'Das Feld x muss 4 Ziffern lang sein.' },
    digits_between: {
      rules: x((r) => r.digitsBetween(2, 4)),
      pass: { x: '123' },
      fail: { x: '12345' },
      en: 'The x field must be between 2 and 4 digits.',
      de: 'Das Feld x muss zwischen 2 und 4 Ziffern lang sein.',
    },
    min_digits: { rules: x((r) => r.minDigits(3)), pass: { x: '1234' }, fail: { x: '12' }, en: 'The x field must have at least 3 digits.', de: 'Das Feld x muss mindestens 3 Ziffern haben.' },
    multiple_of: { rules: x((r) => r.multipleOf(5)), pass: { x: 15 }, fail: { x: 12 }, en: 'The x field must be a multiple of 5.', de: 'Das Feld x muss ein Vielfaches von 5 sein.' },
  },
  dates: {
    date: { rules: x((r) => r.date()), pass: { x: '2026-11-24' }, fail: { x: '2026-13-01' }, en: 'The x field must be a valid date.', de: 'Das Feld x muss ein gültiges Datum sein.' },
    before: {
      rules: x((r) => r.before('2026-01-01')),
      pass: { x: '2025-12-31' },
      fail: { x: '2026-01-01' },
      en: 'The x field must be a date before 2026-01-01.',
      de: 'Das Feld x muss ein Datum vor 2026-01-01 sein.',
    },
    after: {
      rules: x((r) => r.after('starts_at')),
      pass: { x: '2026-02-01', starts_at: '2026-01-01' },
      fail: { x: '2026-01-01', starts_at: '2026-01-01' },
      en: 'The x field must be a date after starts at.',
      de: 'Das Feld x muss ein Datum nach starts at sein.',
    },
    after_or_equal: {
      rules: x((r) => r.afterOrEqual(new Date('2026-01-01T00:00:00Z'))),
      pass: { x: '2026-01-01' },
      fail: { x: '2025-12-31' },
      en: 'The x field must be a date after or equal to 2026-01-01.',
      de: 'Das Feld x muss ein Datum nach oder gleich 2026-01-01 sein.',
    },
  },
  database: {
    unique: {
      rules: x((r) => r.unique('users', 'email')),
      pass: { x: 'new@example.com' },
      fail: { x: 'ada@example.com' },
      en: 'The x has already been taken.',
      de: 'X ist bereits vergeben.',
    },
    'unique ignore': {
      rules: (v) => v.field('x').unique('users', 'email').ignore(v.valueOf('id') as number | undefined),
      pass: { x: 'ada@example.com', id: 1 },
      fail: { x: 'ada@example.com', id: 2 },
      en: 'The x has already been taken.',
      de: 'X ist bereits vergeben.',
    },
    exists: { rules: x((r) => r.exists('users', 'email')), pass: { x: 'ada@example.com' }, fail: { x: 'nobody@example.com' }, en: 'The selected x is invalid.', de: 'Die Auswahl für x ist ungültig.' },
  },
  'files (Upload)': {
    image: { rules: x((r) => r.image()), pass: { x: png }, fail: { x: pdf }, en: 'The x field must be an image.', de: 'Das Feld x muss ein Bild sein.' },
    mimes: {
      rules: x((r) => r.mimes('jpg', 'png')),
      pass: { x: png },
      fail: { x: pdf },
      en: 'The x field must be a file of type: jpg, png.',
      de: 'Das Feld x muss eine Datei vom Typ jpg, png sein.',
    },
    dimensions: {
      rules: x((r) => r.dimensions(new Dimensions().minWidth(100))),
      pass: { x: png },
      fail: { x: upload({ dimensions: { width: 99, height: 50 } }) },
      en: 'The x field has invalid image dimensions.',
      de: 'Das Feld x hat ungültige Bildmaße.',
    },
    'max(size)': {
      rules: x((r) => r.max(2)),
      pass: { x: png },
      fail: { x: upload({ size: 3000 }) },
      en: 'The x field must not be greater than 2 kilobytes.',
      de: 'Das Feld x darf maximal 2 Kilobytes groß sein.',
    },
  },
  custom: {
    apply: {
      rules: x((r) => r.apply(defineRule('slug', (value) => typeof value === 'string' && !value.includes(' '), 'validation.alphaDash'))),
      pass: { x: 'a-slug' },
      fail: { x: 'a slug' },
      en: 'The x field must only contain letters, numbers, dashes, and underscores.',
      de: 'Das Feld x darf nur Buchstaben, Ziffern, Binde- und Unterstriche enthalten.',
    },
    rule: {
      rules: (v) => v.field('x').rule(v.valueOf('x') !== 'no', 'validation.accepted'),
      pass: { x: 'yes' },
      fail: { x: 'no' },
      en: 'The x field must be accepted.',
      de: 'Das Feld x muss akzeptiert werden.',
    },
    message: { rules: x((r) => r.min(3).message('validation.required')), pass: { x: 'abc' }, fail: { x: 'ab' }, en: 'The x field is required.', de: 'Das Feld x ist erforderlich.' },
    label: { rules: x((r) => r.required().label('nickname')), pass: { x: 'a' }, fail: {}, en: 'The nickname field is required.', de: 'Das Feld nickname ist erforderlich.' },
    current_password: { rules: x((r) => r.currentPassword()), pass: { x: 'secret' }, fail: { x: 'wrong' }, en: 'The x is incorrect.', de: 'X ist falsch.' },
  },
  collections: {
    each: {
      rules: (v) => v.each('tags', (item) => item.max(3)),
      pass: { tags: ['a', 'bc'] },
      fail: { tags: ['a', 'abcd'] },
      field: 'tags.1',
      en: 'The tags item 2 field must not be greater than 3 characters.',
      de: 'Das Feld tags Eintrag 2 darf maximal 3 Zeichen lang sein.',
    },
    nested: {
      rules: (v) => v.nested('address', (group) => group.field('city').required()),
      pass: { address: { city: 'Bonn' } },
      fail: { address: { city: '' } },
      field: 'address.city',
      en: 'The address city field is required.',
      de: 'Das Feld address city ist erforderlich.',
    },
    distinct: {
      rules: (v) => v.distinct('tags'),
      pass: { tags: ['a', 'b'] },
      fail: { tags: ['a', 'b', 'a'] },
      field: 'tags.2',
      en: 'The tags item 3 field has a duplicate value.',
      de: 'Das Feld tags Eintrag 3 enthält einen doppelten Wert.',
    },
  },
};

for (const [group, rows] of Object.entries(TABLE)) {
  describe(`validation table: ${group}`, () => {
    it.each(Object.entries(rows))('%s', async (_name, row) => {
      const field = row.field ?? 'x';
      expect(await errorsOf(row.pass, row.rules)).toEqual({});
      expect(await errorsOf(row.fail, row.rules, english)).toEqual({ [field]: [row.en] });
      expect(await errorsOf(row.fail, row.rules, german)).toEqual({ [field]: [row.de] });
    });
  });
}

it('has a row for every rule the spec lists', () => {
  const spec = {
    presence: 'required required_if required_unless required_with required_with_all required_without prohibited prohibited_if prohibits accepted declined',
    'size and compare': 'min max size between gt gte lt lte same different confirmed one_of none_of distinct',
    text: 'email url matches not_matches alpha alpha_num alpha_dash lowercase uppercase starts_with ends_with ascii uuid ulid ip mac_address json timezone hex_color',
    numbers: 'numeric integer decimal digits digits_between min_digits multiple_of',
    dates: 'date before after after_or_equal',
    database: 'unique exists',
    'files (Upload)': 'image mimes dimensions max(size)',
    custom: 'apply rule message label current_password',
    collections: 'each nested distinct',
  };
  for (const [group, names] of Object.entries(spec)) {
    expect(Object.keys(TABLE[group] ?? {})).toEqual(expect.arrayContaining(names.split(' ')));
  }
});

describe('file rules go by the sniffed bytes, not the client’s name or type', () => {
  it.each<[string, (r: FieldRules) => void, UploadedFile, boolean]>([
    ['an SVG is no image (it carries script)', (r) => r.image(), upload({ sniffedType: 'image/svg+xml', sniffedExtension: 'svg', dimensions: null }), false],
    ['jpeg names what sniffs as jpg', (r) => r.mimes('jpeg'), upload({ sniffedType: 'image/jpeg', sniffedExtension: 'jpg' }), true],
    ['a media type wildcard', (r) => r.mimes('image/*'), png, true],
    ['unknown bytes pass only as txt or csv', (r) => r.mimes('csv'), upload({ sniffedType: null, sniffedExtension: null, dimensions: null }), true],
    ['unknown bytes are no pdf', (r) => r.mimes('pdf'), upload({ sniffedType: null, sniffedExtension: null, dimensions: null }), false],
    ['dimensions as a plain object, ratio 2:1', (r) => r.dimensions({ ratio: 2 }), png, true],
    ['max(size) counts kilobytes of 1024 bytes', (r) => r.max(2), upload({ size: 2049 }), false],
  ])('%s', async (_name, chain, file, passes) => {
    const errors = await errorsOf({ x: file }, x(chain));
    expect(errors['x'] === undefined).toBe(passes);
  });
});
