/**
 * Who is asking decides the shape of refusals and errors: API clients get JSON, partial-update
 * requests (htmx) get headers they understand, browsers get pages and redirects.
 */
export interface RequestTraits {
  accept?: string | undefined;
  contentType?: string | undefined;
  authorization?: string | undefined;
}

/** An API client sends `Accept: application/json`, a JSON body, or an `Authorization` header. */
export function isApiClient(traits: RequestTraits): boolean {
  const accept = (traits.accept ?? '').toLowerCase();
  const contentType = (traits.contentType ?? '').toLowerCase();
  return (
    /(^|,)\s*application\/(json|[a-z0-9.+-]+\+json)\s*(;|,|$)/u.test(accept) ||
    /^application\/(json|[a-z0-9.+-]+\+json)\s*(;|$)/u.test(contentType) ||
    (traits.authorization ?? '').trim() !== ''
  );
}

/** The request's `HX-*` headers, as the spec's `Hx` extractor gives them. */
export interface PartialUpdate {
  request: boolean;
  boosted: boolean;
  target: string | null;
  trigger: string | null;
  currentUrl: string | null;
}

export function partialUpdate(header: (name: string) => string | undefined): PartialUpdate {
  return {
    request: header('hx-request') === 'true',
    boosted: header('hx-boosted') === 'true',
    target: header('hx-target') ?? null,
    trigger: header('hx-trigger') ?? null,
    currentUrl: header('hx-current-url') ?? null,
  };
}
