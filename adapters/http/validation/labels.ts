/**
 * The name a message gives a field. A form's `labels` win, looked up by the full path
 * (`tags.0`) and then with item numbers as `*` (`tags.*`), so one label covers a whole list.
 * Otherwise the path is spelled out: `password_confirmation` is "password confirmation",
 * `address.city` "address city", `tags.0` "tags item 1" (people count from one).
 */
export type Labels = Readonly<Record<string, string>>;

export function labelFor(path: string, labels: Labels = {}): string {
  const exact = labels[path];
  if (exact !== undefined) return exact;
  const segments = path.split('.');
  const wildcard = labels[segments.map((segment) => (isIndex(segment) ? '*' : segment)).join('.')];
  if (wildcard !== undefined) return wildcard;
  return segments
    .map((segment) => (isIndex(segment) ? `item ${Number(segment) + 1}` : segment.replaceAll('_', ' ').trim()))
    .join(' ');
}

function isIndex(segment: string): boolean {
  return /^\d+$/u.test(segment);
}
