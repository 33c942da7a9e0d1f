import { describe, expect, it } from 'vitest';
import { pageNumbers, pageUrl } from '../../../domain/data/pages.js';
import { rendererFor } from './app-views.js';

const renderer = rendererFor({
  'list.html': '{% from "fw/pagination.html" import pagination, simple_pagination %}{{ pagination(page, page_url) }}|{{ simple_pagination(simple, page_url) }}',
});
const pageUrlOf = (n: number): string => pageUrl('/products', { q: 'mug & cup', sort: ['price', 'name'], page: '4' }, n);

function page(total: number, perPage: number, currentPage: number): Record<string, unknown> {
  const numbers = pageNumbers(total, perPage, currentPage);
  return { items: [], total, perPage, currentPage, lastPage: numbers.lastPage, from: numbers.from, to: numbers.to, hasMorePages: currentPage < numbers.lastPage };
}

describe('fw/pagination.html', () => {
  it('links pages around the current one, keeping the other query parameters', async () => {
    const html = await renderer.render('list.html', { page: page(200, 10, 10), simple: { currentPage: 2, hasMorePages: true }, page_url: pageUrlOf });
    expect(html).toContain('<span aria-current="page">10</span>');
    expect(html).toContain('href="/products?q=mug+%26+cup&amp;sort=price');
    expect(html).toContain('sort=price&amp;sort=name&amp;page=11" rel="next"');
    expect(html).toContain('page=9" rel="prev"');
    expect(html).toContain('>20</a>');
    expect(html).not.toContain('>15</a>');
    expect(html).toContain('Showing 91 to 100 of 200');
    expect(html.split('|')[1]).toContain('page=3" rel="next"');
  });

  it('draws nothing for a single page', async () => {
    expect((await renderer.render('list.html', { page: page(5, 10, 1), simple: { currentPage: 1, hasMorePages: false }, page_url: pageUrlOf })).trim()).toBe('|');
  });
});
