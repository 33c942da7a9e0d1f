import type { Lang } from '../../domain/lang/lang.js';

/**
 * The name a message gives a field. A form's `labels` win, looked up by the full path
 * (`tags.0`) and then with item numbers as `*` (`tags.*`), so one label covers a whole list;
 * then the language files' `validation.attributes.<path>` (Laravel's custom attributes).
 * Otherwise the path is spelled out: `password_confirmation` is "password confirmation",
 * `address.city` "address city", `tags.0` "tags item 1" (people count from one; the word
 * "item" is `validation.item` in the language).
 */
export type Labels = Readonly<Record<string, string>>;

export function labelFor(path: string, labels: Labels = {}, lang?: Lang): string {
  const exact = labels[path];
  if (exact !== undefined) return exact;
  const segments = path.split('.');
  const wildcardPath = segments.map((segment) => (isIndex(segment) ? '*' : segment)).join('.');
  const wildcard = labels[wildcardPath];
  if (wildcard !== undefined) return wildcard;
  const translated = lang?.lookup(`validation.attributes.${path}`) ?? lang?.lookup(`validation.attributes.${wildcardPath}`);
  if (translated !== undefined) return translated;
  return segments
    .map((segment) =>
      isIndex(segment) ? (lang?.t('validation.item', { number: Number(segment) + 1 }) ?? `item ${Number(segment) + 1}`) : segment.replaceAll('_', ' ').trim(),
    )
    .join(' ');
}

function isIndex(segment: string): boolean {
  return /^\d+$/u.test(segment);
}
