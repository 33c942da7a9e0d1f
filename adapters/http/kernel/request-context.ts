import type { PartialUpdate } from '../../../domain/http/request-kind.js';
import type { Session } from '../../../domain/session/session.js';
import type { User } from '../../../domain/users/user.js';
import type { Lang } from '../../../domain/lang/lang.js';
import type { AuthUser } from './auth-user.js';
import type { Logger } from '../../../ports/logger.js';
import type { Cookies } from './cookies.js';
import type { Model } from '../model.js';
import type { Reply } from './replies.js';
import type { Struct } from 'superstruct';
import type { FormSchema } from '../validation/form-schema.js';
import type { RequestStorage } from '../storage/request-storage.js';

/** A typed key for values the app provides (`App.provide`) or middleware sets (`ctx.current.set`). */
export type ContextKey<T> = symbol & { readonly __value?: T };

export function contextKey<T>(description: string): ContextKey<T> {
  return Symbol(description);
}

/** A key of the app's services container that remembers what it resolves to (the spec's `State`). */
export type ServiceKey<T> = symbol & { readonly __service?: T };

export interface CurrentRoute {
  /** The route's name, or null for an unnamed route and the fallback. */
  readonly name: string | null;
  /** The route's pattern, e.g. `/products/{id}`. */
  readonly path: string;
  /** Whether the name matches any of the patterns; `*` stands for anything (`products.*`). */
  is(...patterns: string[]): boolean;
}

export interface PathParameters {
  /** The parameter as text; a parameter the route lacks is a programmer error (500). */
  string(name: string): string;
  /** The parameter as a whole number; one that does not parse answers 404. */
  int(name: string): number;
  readonly all: Readonly<Record<string, string>>;
}

/** `ctx.auth`: the session transitions of spec 001 for signing in and out. */
export interface SessionAuth {
  /**
   * Signs the user in on this session: a new CSRF token (and with the database driver a new
   * session id); `remember` gives the session REMEMBER_LIFETIME instead of SESSION_LIFETIME.
   */
  login(user: User, options?: { remember?: boolean }): AuthUser;
  /** Signs out this device only; other devices stay signed in. A new CSRF token. */
  logout(): void;
  /** Ends every other session of the user (copied cookies too); this one stays signed in. */
  logoutOtherDevices(): Promise<void>;
  /**
   * After a use case raised the user's session epoch (a password change): this session moves
   * to the new epoch and stays signed in; every other one ends.
   */
  adoptEpoch(epoch: number): Promise<void>;
  /** Counts as typing the password: `requirePasswordConfirmed` passes for three hours. */
  confirmPassword(): void;
}

/**
 * What a handler and a middleware receive: the spec's extractors as one typed object.
 * Everything is read lazily; nothing here touches the network.
 */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly params: PathParameters;
  readonly query: Readonly<Record<string, string | string[]>>;
  /** `?page=` as a page number, at least 1. */
  readonly page: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly session: Session;
  /** The signed-in user (from the session or an `Authorization: Bearer` token), or null for a guest. */
  readonly user: AuthUser | null;
  /**
   * The signed-in user, or the handler stops: guests go to the login page (GET pages are
   * remembered for `Redirect.intended`), partial updates get `HX-Redirect`, API clients 401 JSON.
   */
  requireUser(): AuthUser;
  readonly auth: SessionAuth;
  readonly cookies: Cookies;
  readonly hx: PartialUpdate;
  readonly ip: string | null;
  readonly requestId: string;
  readonly route: CurrentRoute;
  readonly domainParams: { get(name: string): string | undefined };
  /** The request's locale (the locale stage's choice); `lang.locale`. */
  readonly locale: string;
  /** The request's language: `lang.t(key, params)`, `lang.choice(key, count, params)`. */
  readonly lang: Lang;
  readonly log: Logger;
  /** API clients get JSON refusals: `Accept: application/json`, a JSON body or an `Authorization` header. */
  readonly isApiClient: boolean;
  /** The unvalidated body: form fields or JSON. */
  body(): unknown;
  /** The body's bytes as received, on a `Routes.webhook` route (for signatures); null elsewhere. */
  rawBody(): Buffer | null;
  /**
   * Route model binding (the spec's `Found<M>`): the row the route's parameter names, the one
   * named after the model (`{product}` for `products`) or else the only one (or `param`), read as
   * the model's key or, for a parameter named after one of its `columns`, by that column. The
   * model's scope and soft deletes apply. No row, or a key that does not parse: the handler
   * stops with 404. It only loads; permission checks stay with the handler.
   */
  found<Row>(model: Model<Row>, param?: string): Promise<Row>;
  /**
   * The form (or JSON body, or for GET the query) checked by the schema's steps. When it fails,
   * the handler stops: a plain form goes back (303) with its errors and old input; a partial
   * update or an API client gets 422 with the errors as JSON; a refused `authorize` is 403.
   */
  valid<T>(schema: FormSchema<T>): Promise<T>;
  /**
   * The unvalidated body (the spec's `Form<T>` and `Json<T>`; for GET the query) read by the
   * struct's shape and coercion alone: no rules, no form steps. Fields keep their type's plain
   * meaning: a `checkbox()` takes `true`/`false` only, never the browser's `on` nor absence as
   * "no" (that is `valid()`'s). Input that does not fit stops the handler with 422: the
   * errors as JSON for API clients and partial updates, an error page naming them otherwise.
   */
  form<T>(struct: Struct<T, unknown>): T;
  /** A service of the app (`TOKENS.clock`, a use case…): the spec's `State<AppState>`. */
  service<T>(key: ServiceKey<T>): T;
  /**
   * The app's storage disks: itself the default disk (FILESYSTEM_DISK), so `ctx.storage.put(key,
   * body)`, `ctx.storage.temporaryUrl(key, ttl)`; `ctx.storage.disk('public')` names another.
   */
  readonly storage: RequestStorage;
  /**
   * What a failed form sends back to the next page: the errors (in `bag`) and the input as
   * typed, passwords left out. `valid()` does this itself; handlers call it for failures only
   * they can see (wrong credentials, a taken address found at save).
   */
  flashFormErrors(errors: Record<string, string[]>, bag?: string): void;
  /** A value given with `App.provide(key, value)`; answers 500 naming the key when none was. */
  provided<T>(key: ContextKey<T>): T;
  /** Values middleware set for this request (the spec's `Current<T>`). */
  readonly current: RequestValues;
  /** The app's route URLs and signed links, and whether this request came through a valid one. */
  readonly urls: RouteUrls;
  /**
   * Work to run once the answer is written, in the order given: a mail the visitor should not
   * wait for, nor be able to time. A failure is logged; the server's stop waits for the work.
   */
  afterResponse(task: () => Promise<void>): void;
}

/** Values a middleware sets for the rest of this request (the spec's `Current<T>`, `context::set`). */
export interface RequestValues {
  /** The value set under `key`; answers 500 naming the key when no middleware set it. */
  get<T>(key: ContextKey<T>): T;
  /** The value set under `key`, or null (the spec's `Option<Current<T>>`). */
  getOrNull<T>(key: ContextKey<T>): T | null;
  set<T>(key: ContextKey<T>, value: T): void;
}

/** Route URLs and signed links (the spec's `state.url`, `absolute_url`, `signed_url`, `sign_path`, `ValidSignature`, `signed::verify`). */
export interface RouteUrls {
  /** Whether the app has a route of this name (a template shows a link only when the page exists). */
  has(name: string): boolean;
  /** A named route's path: arguments fill its blanks in order, `query` becomes the query string. */
  route(name: string, args?: readonly (string | number)[], query?: Record<string, unknown>): string;
  /** The same, starting with APP_URL. */
  absolute(name: string, args?: readonly (string | number)[], query?: Record<string, unknown>): string;
  /**
   * An absolute link to a named route, valid for `ttlSeconds`: an HMAC-SHA256 (key derived from
   * APP_KEY) over its path and expiry. It carries no other query string.
   */
  signed(name: string, args: readonly (string | number)[], ttlSeconds: number): string;
  /** A path of this site, signed the same way. */
  signPath(path: string, ttlSeconds: number): string;
  /** Whether this request's URL is a signed link, unaltered and unexpired. */
  hasValidSignature(): boolean;
  /** Stops with 403 unless this request's URL is a valid signed link (the spec's `ValidSignature`). */
  requireValidSignature(): void;
  /** Whether any URL (absolute or a path) is a valid signed link of this app. */
  verify(url: string): boolean;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** Code around the handler: before `next()` runs before it, after runs after it. */
export type Middleware = (ctx: RequestContext, next: () => Promise<Reply>) => Reply | Promise<Reply>;
