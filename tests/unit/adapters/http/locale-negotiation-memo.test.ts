/** The locale stage remembers each Accept-Language header's answer: it must never change the answer. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { negotiateLocale } from '../../../../domain/lang/negotiate-locale.js';
import { headerNegotiation } from '../../../../adapters/http/kernel/stages/locale.js';

const available = ['de', 'en', 'fr', 'pt-BR'];
const tag = fc.constantFrom('de', 'de-AT', 'en', 'en-GB', 'fr', 'pt', 'pt-br', 'es', '*', 'x');
const header = fc.oneof(
  fc.array(fc.tuple(tag, fc.option(fc.constantFrom('0', '0.1', '0.5', '1', 'abc')))).map((parts) => parts.map(([name, q]) => (q === null ? name : `${name};q=${q}`)).join(', ')),
  fc.string({ maxLength: 400 }),
);

describe('remembered Accept-Language negotiation', () => {
  it('gives what negotiating afresh gives, for any header, asked once or again, past the memo’s size', () => {
    const remembered = headerNegotiation(available, 'en');
    fc.assert(
      fc.property(fc.array(header, { minLength: 1, maxLength: 40 }), (headers) => {
        for (const each of [...headers, ...headers]) {
          expect(remembered(each)).toBe(negotiateLocale({ session: null, acceptLanguage: each, available, fallback: 'en' }));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('no header is APP_LOCALE; a known one is its language', () => {
    const remembered = headerNegotiation(available, 'en');
    expect([remembered(undefined), remembered('de-AT, en;q=0.5'), remembered('de-AT, en;q=0.5'), remembered('pt')]).toEqual(['en', 'de', 'de', 'pt-BR']);
  });
});
