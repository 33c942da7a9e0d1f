/** The most rows a page holds, whatever `perPage` asks (spec 'Limits'). */
export const MAX_PER_PAGE = 1000;
export const DEFAULT_PER_PAGE = 15;

/** `perPage` made safe: a whole number from 1 to 1000 (anything else is the default or the cap). */
export function clampPerPage(perPage: number | undefined): number {
  if (perPage === undefined || !Number.isFinite(perPage) || perPage < 1) return DEFAULT_PER_PAGE;
  return Math.min(MAX_PER_PAGE, Math.floor(perPage));
}

/** A page number made safe: a whole number, at least 1. */
export function clampPage(page: number | undefined): number {
  if (page === undefined || !Number.isFinite(page) || page < 1) return 1;
  return Math.min(Math.floor(page), Number.MAX_SAFE_INTEGER);
}

/** The numbers a page of a `total`-row result shows. */
export function pageNumbers(total: number, perPage: number, page: number): { lastPage: number; offset: number; from: number | null; to: number | null } {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;
  const shown = Math.max(0, Math.min(perPage, total - offset));
  return { lastPage, offset, from: shown === 0 ? null : offset + 1, to: shown === 0 ? null : offset + shown };
}

/** A page with its total (`paginate`). */
export interface LengthAwarePage<Row> {
  readonly items: Row[];
  readonly total: number;
  readonly perPage: number;
  readonly currentPage: number;
  readonly lastPage: number;
  /** The 1-based numbers of the first and last rows shown, null for an empty page. */
  readonly from: number | null;
  readonly to: number | null;
  readonly hasMorePages: boolean;
}

/** A page without a count (`simplePaginate`): whether another follows is known from one extra row. */
export interface SimplePage<Row> {
  readonly items: Row[];
  readonly perPage: number;
  readonly currentPage: number;
  readonly hasMorePages: boolean;
}

/** A keyset page (`cursorPaginate`): `nextCursor` continues after its last row. */
export interface CursorPage<Row> {
  readonly items: Row[];
  readonly perPage: number;
  readonly nextCursor: string | null;
  readonly hasMorePages: boolean;
}

/** The link to page `n` of the current address: every other query parameter kept, `page` set. */
export function pageUrl(path: string, query: Readonly<Record<string, string | readonly string[]>>, page: number, name = 'page'): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === name) continue;
    for (const each of typeof value === 'string' ? [value] : value) params.append(key, each);
  }
  params.set(name, String(clampPage(page)));
  return `${path}?${params.toString()}`;
}

/** A cursor as text: the last row's order values and key, in base64url JSON. */
export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** The values of a cursor, or null when the text is not one of `length` values (a visitor may send anything). */
export function decodeCursor(text: string, length: number): unknown[] | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/u.test(text)) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return Array.isArray(values) && values.length === length ? values : null;
  } catch {
    return null;
  }
}
