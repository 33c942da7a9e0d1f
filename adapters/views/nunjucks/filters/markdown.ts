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
import MarkdownIt from 'markdown-it';
import type { RendererRule } from 'markdown-it';
import { toText } from './to-text.js';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const renderLinkOpen: RendererRule =
  markdown.renderer.rules['link_open'] ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));

markdown.renderer.rules['link_open'] = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'nofollow noopener');
  return renderLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(text: unknown): string {
  if (text === null || text === undefined) return '';
  return markdown.render(toText(text));
}
