/**
 * `{{ post.body | rich_text }}`: HTML written in a rich-text editor, printed with only an
 * allow-list of harmless markup kept (sanitize-html; never a hand-written filter).
 *
 * - kept: paragraphs, line breaks, headings h2–h6, emphasis, lists, quotes, code, tables,
 *   horizontal rules, links and images;
 * - dropped with their content: script, style, iframe, object, embed, template, textarea…
 *   (sanitize-html's `nonTextTags` plus the ones it leaves as text); every other unknown tag is
 *   removed and its text kept;
 * - no attribute but the listed ones: no `on*` event handlers, no `style`, no `class`, no `id`;
 * - URLs only `http:`, `https:`, `mailto:` (and relative ones): `javascript:`, `data:`,
 *   `vbscript:` are removed;
 * - links get `rel="nofollow noopener noreferrer"`, like the `markdown` filter's.
 */
import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import { toText } from './to-text.js';

/** The options, given the module (its `simpleTransform` builds the link rule). */
const options = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [
    'p', 'br', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'sub', 'sup', 'small',
    'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr', 'a', 'img', 'figure', 'figcaption',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  ],
  allowedAttributes: {
    // rel is set by transformTags below (a writer's own rel is replaced).
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start', 'reversed'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
  transformTags: {
    a: sanitize.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }),
  },
});

/** sanitize-html (and its HTML parser) is loaded by the first page that prints rich text. */
let sanitizer: ((html: string) => string) | null = null;
function sanitizerOf(): (html: string) => string {
  if (sanitizer === null) {
    const sanitize = createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
    const chosen = options(sanitize);
    sanitizer = (html) => sanitize(html, chosen);
  }
  return sanitizer;
}

export function sanitizeRichText(html: unknown): string {
  if (html === null || html === undefined) return '';
  return sanitizerOf()(toText(html));
}
