/**
 * Every outgoing HTTP call of the app (discovery, the code exchange, profile reads), shaped
 * like WHATWG `fetch` so openid-client takes it as its `customFetch` and a provider's
 * `profile()` uses it the same way. The default adapter is the platform's `fetch` with a
 * timeout; tests swap in `FakeHttpClient`, so no test ever reaches a real provider.
 */
export interface HttpRequestInit {
  readonly method?: string;
  readonly headers?: Headers | Record<string, string>;
  readonly body?: string | URLSearchParams | null;
  readonly redirect?: 'follow' | 'manual' | 'error';
  readonly signal?: AbortSignal | null;
}

export interface HttpClient {
  fetch(url: string, init?: HttpRequestInit): Promise<Response>;
}
