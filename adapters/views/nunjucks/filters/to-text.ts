/**
 * A template value as text, the way nunjucks prints it: by `toString()` (so a `SafeString`
 * gives its HTML and a number its digits); `null` and `undefined` are empty.
 */
export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return (value as { toString(): string }).toString();
}
