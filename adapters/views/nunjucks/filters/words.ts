/**
 * `{{ post.body | words(30) }}`: the first `count` words and `…` when something was cut; a text
 * short enough is returned as it is (trimmed).
 */
import { toText } from './to-text.js';

export function firstWords(text: unknown, count = 30): string {
  if (text === null || text === undefined) return '';
  const trimmed = toText(text).trim();
  const words = trimmed.split(/\s+/).filter((word) => word !== '');
  const limit = Number.isFinite(count) ? Math.max(Math.trunc(count), 0) : 30;
  if (words.length <= limit) return trimmed;
  return `${words.slice(0, limit).join(' ')}…`;
}
