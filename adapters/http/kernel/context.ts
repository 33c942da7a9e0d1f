import { isApiClient, partialUpdate } from '../../../domain/http/request-kind.js';
import type { PartialUpdate } from '../../../domain/http/request-kind.js';
import { routeNameIs } from '../../../domain/http/routing/route-name.js';
import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import { ContextUrls } from './context-urls.js';
import type { Session } from '../../../domain/session/session.js';
import { turnAwayGuest } from '../../../domain/http/guards.js';
import type { AuthUser } from './auth-user.js';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import type { RecordFinder } from '../../../ports/record-finder.js';
import type { Model } from '../model.js';
import { findBoundRow } from './found.js';
import { cookieValues } from './cookie-header.js';
import type { Cookies } from './cookies.js';
import { HttpAbort } from './http-error.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { ErrorCode } from '../../../domain/shared/errors.js';
import { Redirect, combine, json } from './replies.js';
import type { Reply } from './replies.js';
import type { ContextKey, ServiceKey, CurrentRoute, Handler, PathParameters, RequestContext, RequestValues, RouteUrls } from './request-context.js';
import type { FormServices } from '../validation/form-context.js';
import type { Lang } from '../../../domain/lang/lang.js';
import { negotiateLocale } from '../../../domain/lang/negotiate-locale.js';
import type { FormSchema } from '../validation/form-schema.js';
import { validate } from '../validation/validate.js';
import type { ValidationResult } from '../validation/validate.js';
import type { Struct } from 'superstruct';
import { readShape } from '../../../application/validation/read-shape.js';
import { superstructShape } from '../validation/superstruct-shape.js';
import type { KernelRequest } from './request.js';
import type { Sealer } from './sealer.js';
import { guardReply } from './guard-replies.js';
import { Authenticator } from './identity.js';
import type { IdentityServices } from './identity.js';
import type { SessionDriver } from './session/session-driver.js';
import type { RequestStorage } from '../storage/request-storage.js';
import type { RequestOrigin } from '../../../ports/request-origin.js';

/** What every request's context shares: fixed when the kernel starts. */
export interface ContextShared {
  table: RouteTable<Handler>;
  appUrl: string;
  locale: string;
  provided: ReadonlyMap<symbol, unknown>;
  sealer: Sealer;
  /** What validation reaches beyond the input: the database for unique/exists, the hasher. */
  forms: FormServices;
  /** Signed URLs: the key derived from APP_KEY for them, and the clock that says when links expire. */
  signing: { key: Buffer; clock: Clock };
  identity: IdentityServices;
  /** Route model binding (`ctx.found`) reads rows through it. */
  records: RecordFinder;
  /** The app's services as a request sees them (`ctx.service(key)`), given its origin. */
  services: (origin: RequestOrigin) => (key: symbol) => unknown;
  /** `ctx.storage`: the app's disks; null for a kernel built without storage. */
  storage: RequestStorage | null;
}

/**
 * A handler stops with this reply (a failed form's way back): the views stage sends it as if the
 * handler had returned it. With `abort(status)` for a status, the one way to stop from deep in a
 * handler's helpers (docs/errors.md).
 */
export class StopWithReply extends FrameworkError {
  constructor(readonly reply: Reply) {
    super('http.stop-with-reply', 'The request stopped with a reply');
  }
}

/** Stops the request with `reply` wherever it is called: `stopWith(Redirect.back())`. */
export function stopWith(reply: Reply): never {
  throw new StopWithReply(reply);
}

export interface MatchedRoute {
  name: string | null;
  pattern: string;
  params: Record<string, string>;
  domainParams: Record<string, string>;
}

/** Thrown for a programmer's mistake that must answer 500 with a message naming it. */
export class KernelMisuse extends FrameworkError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
  }
}

const INTEGER = /^-?\d{1,15}$/u;

/**
 * What a route's layers say about the stages, decided once at start and read-only for the
 * request: stages read it, none of them sets it for another.
 */
export interface RouteTraits {
  /** A webhook (it checks a signature instead) or `.withoutCsrf()`. */
  readonly csrfExempt: boolean;
  /** `.etag()`. */
  readonly etag: boolean;
  /**
   * Whether a session this request starts is worth a cookie: not for a webhook's callers, nor for
   * answers to no route (404, 405, 400), so scanners asking for made-up paths get no session.
   */
  readonly keepsNewSession: boolean;
}

/** The traits of a request no route answers. */
export const NO_ROUTE: RouteTraits = Object.freeze({ csrfExempt: false, etag: false, keepsNewSession: false });

/**
 * The request context handed to handlers and middleware. The session is attached by the
 * session stage; reading it before is a programmer error.
 */
export class KernelContext implements RequestContext {
  readonly method: string;
  readonly path: string;
  readonly params: PathParameters;
  readonly route: CurrentRoute;
  readonly domainParams: { get(name: string): string | undefined };
  readonly cookies: Cookies;
  private partial: PartialUpdate | null = null;
  private api: boolean | null = null;
  private attached: Session | null = null;
  private sessionStore: SessionDriver | null = null;
  private values: CurrentValues | null = null;
  private routeUrls: ContextUrls | null = null;
  private signedIn: AuthUser | null = null;
  private authenticator: Authenticator | null = null;
  private chosenLang: Lang | null = null;
  private languageChooser: (() => Lang) | null = null;
  private serviceLookup: ((key: symbol) => unknown) | null = null;

  constructor(
    readonly request: KernelRequest,
    method: string,
    matched: MatchedRoute,
    private readonly shared: ContextShared,
    /** What the matched route's layers decided at start (CSRF, ETag, whether a new session is kept). */
    readonly traits: RouteTraits = NO_ROUTE,
  ) {
    this.method = method;
    this.path = request.path;
    this.params = pathParameters(matched);
    this.route = {
      name: matched.name,
      path: matched.pattern,
      is: (...patterns: string[]) => routeNameIs(matched.name, patterns),
    };
    this.domainParams = { get: (name) => matched.domainParams[name] };
    this.cookies = {
      get: (name) => cookieValues(request.headers['cookie'], name)[0],
      getEncrypted: async <T>(name: string) => {
        // The first value sent that opens: a stale copy from a parent domain must not hide it.
        for (const value of cookieValues(request.headers['cookie'], name)) {
          const opened = await shared.sealer.unseal(name, value);
          if (opened !== undefined) return opened as T;
        }
        return undefined;
      },
    };
  }

  /** htmx's request headers, read when first asked for (a plain page asks once, an API handler never). */
  get hx(): PartialUpdate {
    this.partial ??= partialUpdate((name) => headerText(this.request.headers[name]));
    return this.partial;
  }

  get isApiClient(): boolean {
    this.api ??= apiClient(this.request.headers);
    return this.api;
  }

  get query(): Readonly<Record<string, string | string[]>> {
    return this.request.query;
  }

  get page(): number {
    const raw = this.request.query['page'];
    const value = typeof raw === 'string' && /^\d{1,9}$/u.test(raw) ? Number(raw) : 1;
    return Math.max(1, value);
  }

  get headers(): Readonly<Record<string, string | string[] | undefined>> {
    return this.request.headers;
  }

  get ip(): string | null {
    return this.request.state.clientIp;
  }

  get requestId(): string {
    return this.request.state.requestId;
  }

  /** What `afterResponse` was given, run by the dispatcher once the answer is written. */
  readonly afterResponseTasks: (() => Promise<void>)[] = [];

  afterResponse(task: () => Promise<void>): void {
    this.afterResponseTasks.push(task);
  }

  get log(): Logger {
    return this.request.state.log;
  }

  get locale(): string {
    return this.lang.locale;
  }

  /**
   * The request's language, the locale stage's choice (stages/locale.ts), made on first use and
   * kept for the request. Before that stage ran (an error page of an earlier stage) the same
   * order applies to what is there: the session if open, Accept-Language, APP_LOCALE.
   */
  get lang(): Lang {
    this.chosenLang ??= this.languageChooser?.() ?? this.languageWithoutStage();
    return this.chosenLang;
  }

  /** Set by the locale stage: how this request's language is chosen when first read. */
  chooseLanguage(choose: () => Lang): void {
    this.languageChooser = choose;
  }

  private languageWithoutStage(): Lang {
    const { translator } = this.shared.forms;
    return translator.lang(
      negotiateLocale({
        session: this.hasSession() ? this.session.get('locale') : null,
        acceptLanguage: headerText(this.request.headers['accept-language']),
        available: translator.locales,
        fallback: this.shared.locale,
      }),
    );
  }

  get session(): Session {
    if (this.attached === null) throw new KernelMisuse('http.session-before-stage', 'The session is read before the session stage ran');
    return this.attached;
  }

  /** The session stage hands over the visitor's session and the driver that stores it. */
  attachSession(session: Session, driver: SessionDriver): void {
    this.attached = session;
    this.sessionStore = driver;
  }

  /** Where this request's session is stored; null before the session stage ran. */
  get sessionDriver(): SessionDriver | null {
    return this.sessionStore;
  }

  hasSession(): boolean {
    return this.attached !== null;
  }

  get user(): AuthUser | null {
    return this.signedIn;
  }

  /** Set by the user stage (session or bearer token) and by `auth.login`/`auth.logout`. */
  identify(user: AuthUser | null): void {
    this.signedIn = user;
  }

  requireUser(): AuthUser {
    if (this.signedIn !== null) return this.signedIn;
    const outcome = turnAwayGuest(
      { method: this.method, api: this.isApiClient, partial: this.hx.request },
      this.shared.identity.pages,
    );
    throw new StopWithReply(guardReply(this, outcome));
  }

  get auth(): Authenticator {
    this.authenticator ??= new Authenticator(this, this.shared.identity);
    return this.authenticator;
  }

  body(): unknown {
    return this.request.body.value();
  }

  rawBody(): Buffer | null {
    return this.request.body.raw();
  }

  found<Row>(model: Model<Row>, param?: string): Promise<Row> {
    return findBoundRow(this, this.shared.records, model, param);
  }

  /** This request's input (the query for GET and HEAD, else the body) through a form's steps, without answering. */
  validation<T>(schema: FormSchema<T>): Promise<ValidationResult<T>> {
    const user = this.signedIn === null ? null : { id: this.signedIn.id, passwordHash: this.signedIn.record.passwordHash };
    return validate(schema, this.formInput(), { ...this.shared.forms, user, lang: this.lang, services: (key) => this.service(key) });
  }

  private formInput(): unknown {
    return this.method === 'GET' || this.method === 'HEAD' ? this.query : (this.body() ?? {});
  }

  async valid<T>(schema: FormSchema<T>): Promise<T> {
    const input = this.formInput();
    const result = await this.validation(schema);
    if (result.kind === 'valid') return result.value;
    if (result.kind === 'forbidden') throw new HttpAbort(403, '');
    if (this.isApiClient || this.hx.request) {
      throw new StopWithReply(json({ message: this.lang.t('validation.invalid'), errors: result.errors }, 422));
    }
    this.flashFormErrors(result.errors, schema.bag ?? 'default', input);
    throw new StopWithReply(combine(Redirect.back()));
  }

  form<T>(struct: Struct<T, unknown>): T {
    const read = readShape(superstructShape(struct, { unvalidated: true }), this.formInput(), this.lang);
    if (read.kind === 'read') return read.value;
    if (this.isApiClient || this.hx.request) throw new StopWithReply(json({ message: this.lang.t('validation.invalid'), errors: read.errors }, 422));
    throw new HttpAbort(422, Object.values(read.errors).flat().join(' '));
  }

  flashFormErrors(errors: Record<string, string[]>, bag = 'default', input: unknown = this.body()): void {
    if (typeof input === 'object' && input !== null && !Buffer.isBuffer(input)) this.session.flashInput(input as Record<string, unknown>);
    this.session.flashErrors(errors, bag);
  }

  service<T>(key: ServiceKey<T>): T {
    // What this request publishes through the services reaches listeners with its address and id.
    this.serviceLookup ??= this.shared.services({ ipAddress: this.ip ?? '', requestId: this.requestId });
    return this.serviceLookup(key) as T;
  }

  get storage(): RequestStorage {
    if (this.shared.storage === null) throw new KernelMisuse('http.no-storage', 'This app has no storage disks: ctx.storage needs the kernel built with `storage`');
    return this.shared.storage;
  }

  provided<T>(key: ContextKey<T>): T {
    if (!this.shared.provided.has(key)) throw new KernelMisuse('app.nothing-provided', `Nothing was provided for ${key.description ?? 'a key'}: call App.provide(key, value)`);
    return this.shared.provided.get(key) as T;
  }

  get current(): RequestValues {
    this.values ??= new CurrentValues();
    return this.values;
  }

  get urls(): RouteUrls {
    this.routeUrls ??= new ContextUrls(this.shared, this.request.target);
    return this.routeUrls;
  }
}

/** `ctx.current`: made on first use; most requests set nothing. */
class CurrentValues implements RequestValues {
  private readonly values = new Map<symbol, unknown>();

  get<T>(key: ContextKey<T>): T {
    if (!this.values.has(key)) throw new KernelMisuse('http.no-current', `No middleware set ${key.description ?? 'a key'} for this request`);
    return this.values.get(key) as T;
  }

  getOrNull<T>(key: ContextKey<T>): T | null {
    return this.values.has(key) ? (this.values.get(key) as T) : null;
  }

  set<T>(key: ContextKey<T>, value: T): void {
    this.values.set(key, value);
  }
}

function pathParameters(matched: MatchedRoute): PathParameters {
  const read = (name: string): string => {
    const value = matched.params[name];
    if (value === undefined) throw new KernelMisuse('http.no-route-param', `The route ${matched.pattern} has no parameter {${name}}`);
    return value;
  };
  return {
    all: matched.params,
    string: read,
    int(name) {
      const value = read(name);
      const number = Number(value);
      if (!INTEGER.test(value) || !Number.isSafeInteger(number)) throw new HttpAbort(404, '');
      return number;
    },
  };
}

/** Whether these request headers make an API client (JSON refusals): see `isApiClient`. */
export function apiClient(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  return isApiClient({
    accept: headerText(headers['accept']),
    contentType: headerText(headers['content-type']),
    authorization: headerText(headers['authorization']),
  });
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
