import type { HttpClient, HttpRequestInit } from '../../ports/http-client.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';

/** One call as the fake saw it: what a test asserts on (the verifier was sent, the token never was). */
export interface RecordedRequest {
  /** Upper case. */
  readonly method: string;
  readonly url: string;
  /** Names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** Form bodies as their `a=1&b=2` text; null without a body. */
  readonly body: string | null;
}

/** A canned answer: `json` is sent as `application/json`, `body` as given. Status 200 by default. */
export interface FakeAnswer {
  readonly status?: number;
  readonly json?: unknown;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A canned answer, or a function of the request; a function that throws is a network failure. */
export type FakeResponder = FakeAnswer | ((request: RecordedRequest) => FakeAnswer | Response | Promise<FakeAnswer | Response>);

/**
 * Which URLs an answer is for: a string is the exact URL, a string ending in `*` a prefix
 * (`'https://api.github.com/*'`), a RegExp is tested against the whole URL.
 */
export type UrlPattern = string | RegExp;

interface Route {
  readonly method: string;
  readonly matches: (url: string) => boolean;
  readonly responder: FakeResponder;
}

/**
 * The `HttpClient` of tests (`TestApp.fakeHttp`): no test reaches a real provider. Answers
 * are registered per method and URL; the latest registration that matches wins, so a test can
 * override an answer set up before it. A call nobody registered an answer for rejects with an
 * error naming the method and URL, so a missing answer fails the test loudly instead of
 * passing on some default.
 */
export class FakeHttpClient implements HttpClient {
  private routes: Route[] = [];
  private recorded: RecordedRequest[] = [];

  /** Every call in order, answered or not. */
  get calls(): readonly RecordedRequest[] {
    return this.recorded;
  }

  on(method: string, url: UrlPattern, responder: FakeResponder): this {
    this.routes.push({ method: method.toUpperCase(), matches: matcher(url), responder });
    return this;
  }

  /** Forgets every answer and every recorded call. */
  reset(): void {
    this.routes = [];
    this.recorded = [];
  }

  async fetch(url: string, init: HttpRequestInit = {}): Promise<Response> {
    const request: RecordedRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: init.body === undefined || init.body === null ? null : init.body.toString(),
    };
    this.recorded.push(request);
    init.signal?.throwIfAborted();
    const route = this.routes.findLast((candidate) => candidate.method === request.method && candidate.matches(url));
    if (route === undefined) throw new FrameworkError('outbound-http.no-fake-answer', `FakeHttpClient: no answer registered for ${request.method} ${url}`);
    const answer = typeof route.responder === 'function' ? await route.responder(request) : route.responder;
    return answer instanceof Response ? answer : toResponse(answer);
  }
}

function matcher(pattern: UrlPattern): (url: string) => boolean {
  if (pattern instanceof RegExp) return (url) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(url);
  if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return (url) => url.startsWith(prefix);
  }
  // `https://x.test` and `https://x.test/` are the same URL; compare as the parser spells them.
  const exact = normalize(pattern);
  return (url) => normalize(url) === exact;
}

function normalize(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

function toResponse(answer: FakeAnswer): Response {
  if (answer.json !== undefined && answer.body !== undefined) throw new MisuseError('outbound-http.bad-fake-answer', 'A fake answer has either json or body, not both');
  const headers = new Headers(answer.headers);
  let body: string | null = answer.body ?? null;
  if (answer.json !== undefined) {
    body = JSON.stringify(answer.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return new Response(body, { status: answer.status ?? 200, headers });
}
