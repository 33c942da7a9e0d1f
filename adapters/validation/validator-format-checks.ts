import { createRequire } from 'node:module';
import type validator from 'validator';
import type { FormatChecks } from '../../domain/validation/format-checks.js';
import { normalizeEmail } from '../../domain/users/email.js';

// One module per check rather than the package's index, which loads all of its 113 files
// (about 1 MB of heap) with the first import of fw; the checks are the library's own. Each is a
// CommonJS module whose `default` is the check (some also export it whole, some do not, and
// test runners unwrap them differently), so they are required and their `default` read; the
// index is imported for its types only.
const load = createRequire(import.meta.url);
function check<Check>(name: string): Check {
  return (load(`validator/lib/${name}.js`) as { default: Check }).default;
}
const isAscii = check<typeof validator.isAscii>('isAscii');
const isEmail = check<typeof validator.isEmail>('isEmail');
const isFloat = check<typeof validator.isFloat>('isFloat');
const isHexColor = check<typeof validator.isHexColor>('isHexColor');
const isIP = check<typeof validator.isIP>('isIP');
const isISO8601 = check<typeof validator.isISO8601>('isISO8601');
const isInt = check<typeof validator.isInt>('isInt');
const isJSON = check<typeof validator.isJSON>('isJSON');
const isMACAddress = check<typeof validator.isMACAddress>('isMACAddress');
const isULID = check<typeof validator.isULID>('isULID');
const isURL = check<typeof validator.isURL>('isURL');
const isUUID = check<typeof validator.isUUID>('isUUID');

/**
 * The text rules' format checks from the `validator` package (maintained, no dependencies),
 * instead of hand-written patterns. Text longer than any real value of its kind is refused
 * before the library sees it, so a megabyte of input costs nothing.
 */
const LONGEST = 2048;

/** Every time zone the runtime knows (IANA names), plus `UTC`, read once. */
const TIME_ZONES = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);

function bounded(check: (text: string) => boolean, longest = LONGEST): (text: string) => boolean {
  return (text) => {
    if (text.length === 0 || text.length > longest) return false;
    try {
      return check(text);
    } catch {
      return false; // a library bug on odd input is a failed check, never a 500
    }
  };
}

// Option objects made once: the library copies them into its defaults on every call, and a
// fresh literal per call was a measurable share of a 30-field form (bench/validation.bench.ts).
const URL_OPTIONS = { require_protocol: true, protocols: ['http', 'https', 'ftp'] };
const JSON_OPTIONS = { allow_primitives: true };
const ISO_OPTIONS = { strict: true, strictSeparator: true };
const isIsoDate = bounded((text) => isISO8601(text, ISO_OPTIONS), 64);

/**
 * `12`, `-3.5`: text `validator.isFloat` (13.15, no options) always accepts, since its pattern
 * `^[-+]?[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?$` matches it and it is none of the lone signs and
 * points it refuses. Answered here: the library builds its RegExp anew on every call. Anything
 * else still goes to the library.
 */
const SIMPLE_NUMBER = /^[-+]?[0-9]+(?:\.[0-9]+)?$/u;

const DASH = 0x2d;

/** The number the ASCII digits `text[start, start + count)` write, or -1 when one is no digit. */
function digitsAt(text: string, start: number, count: number): number {
  let number = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The common `2026-11-24` read directly, with the answer the library's strict check and
 * `Date.parse` give it (the month 01–12, a day the month has, leap years); three dates of a
 * form took a fifth of its rules' time through the general ISO 8601 path. Undefined for any
 * other spelling (and for years before 100, which `Date.UTC` would move), left to the library.
 */
export function plainDate(text: string): number | null | undefined {
  // `^(\d{4})-(\d{2})-(\d{2})$` read character by character: no match array, no number texts.
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (year < 100) return undefined;
  if (month < 1 || month > 12 || day < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day > days ? null : Date.UTC(year, month - 1, day);
}

export const validatorFormatChecks: FormatChecks = {
  // Both the library and the domain's own rule (what registration stores) must accept it.
  email: bounded((text) => isEmail(text) && normalizeEmail(text).kind === 'valid', 254),
  url: bounded((text) => isURL(text, URL_OPTIONS)),
  uuid: bounded((text) => isUUID(text), 36),
  ulid: bounded((text) => isULID(text), 26),
  ip: bounded((text) => isIP(text), 45),
  macAddress: bounded((text) => isMACAddress(text), 23),
  json: bounded((text) => isJSON(text, JSON_OPTIONS), 1_000_000),
  timezone: (text) => TIME_ZONES.has(text),
  hexColor: bounded((text) => isHexColor(text), 9),
  ascii: (text) => text.length <= 1_000_000 && (text === '' || isAscii(text)),
  numeric: bounded((text) => (SIMPLE_NUMBER.test(text) || isFloat(text)) && Number.isFinite(Number(text)), 400),
  integer: bounded((text) => isInt(text) && Number.isSafeInteger(Number(text)), 400),
  date: (text) => {
    const plain = plainDate(text);
    if (plain !== undefined) return plain;
    if (!isIsoDate(text)) return null;
    const time = Date.parse(text);
    return Number.isNaN(time) ? null : time;
  },
};
