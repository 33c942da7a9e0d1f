/**
 * `{{ post.body | markdown }}`: Markdown typed by users, as HTML that is safe to print.
 *
 * - HTML in the text is shown as text (`html: false` makes markdown-it escape it), so a
 *   visitor cannot inject markup or scripts;
 * - markdown-it's link check drops `javascript:`, `vbscript:`, `file:` and non-image `data:`
 *   URLs (the link text stays, as text);
 * - every link gets `rel="nofollow noopener"`: user-written links earn no ranking and the
 *   opened page gets no handle on this one.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { RendererRule } from 'markdown-it';
import { toText } from './to-text.js';

/** markdown-it is loaded by the first page that prints Markdown. */
type Markdown = InstanceType<typeof MarkdownIt>;
let markdown: Markdown | null = null;
function markdownOf(): Markdown {
  if (markdown !== null) return markdown;
  const MarkdownItModule = createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt;
  const made = new MarkdownItModule({ html: false, linkify: true, typographer: false });
  const renderLinkOpen: RendererRule = made.renderer.rules['link_open'] ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  made.renderer.rules['link_open'] = (tokens, index, options, env, self) => {
    tokens[index]?.attrSet('rel', 'nofollow noopener');
    return renderLinkOpen(tokens, index, options, env, self);
  };
  markdown = made;
  return made;
}

export function renderMarkdown(text: unknown): string {
  if (text === null || text === undefined) return '';
  return markdownOf().render(toText(text));
}
