import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../../adapters/views/nunjucks/filters/rich-text.js';
import { rendererFor } from './app-views.js';

describe('rich_text', () => {
  it.each([
    ['keeps paragraphs, emphasis, lists, headings and quotes', '<h2>Title</h2><p>A <strong>b</strong> <em>c</em></p><ul><li>x</li></ul><blockquote>q</blockquote>', '<h2>Title</h2><p>A <strong>b</strong> <em>c</em></p><ul><li>x</li></ul><blockquote>q</blockquote>'],
    ['drops scripts with their content', '<p>a</p><script>alert(1)</script><p>b</p>', '<p>a</p><p>b</p>'],
    ['drops style elements and style attributes', '<style>p{color:red}</style><p style="color:red">a</p>', '<p>a</p>'],
    ['drops event handlers', '<p onclick="alert(1)">a</p><img src="https://x.example/a.png" onerror="alert(1)" alt="a">', '<p>a</p><img src="https://x.example/a.png" alt="a" />'],
    ['drops javascript: URLs', '<a href="javascript:alert(1)">x</a><a href="JaVaScRiPt&colon;alert(1)">y</a>', '<a rel="nofollow noopener noreferrer">x</a><a rel="nofollow noopener noreferrer">y</a>'],
    ['drops data: images and iframes', '<img src="data:image/svg+xml;base64,PHN2Zz4=" alt=""><iframe src="https://evil.example"></iframe>', '<img alt="" />'],
    ['keeps http(s) and mailto links, adding rel', '<a href="https://a.example" title="t">a</a> <a href="mailto:x@y.z">m</a>', '<a href="https://a.example" title="t" rel="nofollow noopener noreferrer">a</a> <a href="mailto:x@y.z" rel="nofollow noopener noreferrer">m</a>'],
    ['removes unknown tags but keeps their text, and class and id attributes', '<div class="x" id="y"><span>text</span></div>', 'text'],
    ['drops svg with its content', '<svg><script>alert(1)</script><a href="javascript:1">x</a></svg>ok', 'ok'],
    ['closes what the writer left open', '<p><strong>bold', '<p><strong>bold</strong></p>'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeRichText(input)).toBe(expected);
  });

  it('prints nothing for a missing value', () => {
    expect(sanitizeRichText(null)).toBe('');
    expect(sanitizeRichText(undefined)).toBe('');
  });

  it('prints the cleaned HTML unescaped in a template, and escapes nothing twice', async () => {
    const renderer = rendererFor({ 'rich.html': '{{ body | rich_text }}' }, { debug: true });
    expect(await renderer.render('rich.html', { body: '<p>Tea &amp; <b>cups</b></p><script>x()</script>' })).toBe('<p>Tea &amp; <b>cups</b></p>');
  });
});
