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
