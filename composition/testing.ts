import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MemoryLogger } from '../adapters/log/memory-logger.js';
import type { LogLine } from '../adapters/log/memory-logger.js';
import type { Clock } from '../ports/clock.js';
import type { AppOptions, CallOptions, CommandOutcome, RunningApp } from './app.js';
import { App } from './app.js';
import { createDefaultApp } from './default-app.js';
import type { CreateUserInput } from '../application/users/create-user.js';
import type { User } from '../domain/users/user.js';
import { TOKENS } from './tokens.js';
import { FakeHttpClient } from '../adapters/outbound-http/fake-http-client.js';
import { FetchHttpClient } from '../adapters/outbound-http/fetch-http-client.js';
import type { HttpClient, HttpRequestInit } from '../ports/http-client.js';
import { FrameworkError, MisuseError } from '../domain/shared/errors.js';

/**
 * The app's outgoing client in tests: the real `fetch` (an OpenID provider started on loopback
 * by the test) until `TestApp.fakeHttp` puts a fake in its place.
 */
class SwitchableHttpClient implements HttpClient {
  current: HttpClient = new FetchHttpClient();

  fetch(url: string, init?: HttpRequestInit): Promise<Response> {
    return this.current.fetch(url, init);
  }
}

/** Answers by `'METHOD url'` (a url ending in `*` is a prefix): a JSON body each, status 200. */
export type FakeHttpAnswers = Readonly<Record<string, unknown>>;

export interface TestAppOptions {
  /** Settings on top of the test defaults (APP_ENV=testing, a random APP_KEY, in-memory SQLite). */
  environment?: Record<string, string>;
  /** The app's folder (where `key:generate` writes `.env`); the working directory by default. */
  root?: string;
  /** Builds the app under test from the options; the default app when omitted. */
  build?: (options: AppOptions) => App;
  /** A clock the test moves (`FixedClock`), instead of the system's. */
  clock?: Clock;
}

/**
 * The app as a test meets it: no `.env` is read, log lines are kept in `logs`, and
 * `call(command, args)` runs a command in-process (the spec's `kernel().call`).
 */
export class TestApp {
  readonly logs: LogLine[] = [];
  readonly app: App;
  private readonly http = new SwitchableHttpClient();

  private constructor(options: TestAppOptions) {
    const environment = {
      APP_ENV: 'testing',
      HOST: '127.0.0.1',
      PORT: '0',
      APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      // Jobs (the Auth module's mails) run at dispatch, so a test reads their effects at once.
      QUEUE_CONNECTION: 'sync',
      // The transport the test process names (hapi by default): `HTTP_TRANSPORT=fetch npx vitest
      // run …` runs a suite against the kernel behind its fetch handler on node:http.
      HTTP_TRANSPORT: process.env['HTTP_TRANSPORT'] ?? 'hapi',
      ...options.environment,
    };
    const appOptions: AppOptions = { environment, envFile: false, logger: new MemoryLogger(this.logs), httpClient: this.http };
    if (options.root !== undefined) appOptions.root = options.root;
    if (options.clock !== undefined) appOptions.clock = options.clock;
    this.app = (options.build ?? createDefaultApp)(appOptions);
  }

  static create(options: TestAppOptions = {}): TestApp {
    return new TestApp(options);
  }

  /** `options.input` answers the command's prompts, one line each (a password for `user:password`). */
  call(command: string, args: readonly string[] = [], options: CallOptions = {}): Promise<CommandOutcome> {
    return this.app.kernel().call(command, args, options);
  }

  /**
   * The spec's `TestApp::fake_http`: from now on every outgoing call of the app (the code
   * exchange, the profile) is answered by the returned fake, and one nobody answered fails the
   * test. `answers` are shorthands, `{ 'POST https://github.com/login/oauth/access_token':
   * { access_token: 't' }, 'GET https://api.github.com/user': { id: 1 } }`; `fake.on(…)`
   * gives statuses, headers and functions.
   */
  fakeHttp(answers: FakeHttpAnswers = {}): FakeHttpClient {
    const fake = new FakeHttpClient();
    for (const [key, json] of Object.entries(answers)) {
      const space = key.indexOf(' ');
      if (space < 1) throw new MisuseError('testing.bad-fake-key', `A fake answer is keyed 'METHOD url', got '${key}'`);
      fake.on(key.slice(0, space), key.slice(space + 1), { json });
    }
    this.http.current = fake;
    return fake;
  }

  /** Serves the app on a free port of 127.0.0.1, with migrations run, over a real socket. */
  async serve(): Promise<TestServer> {
    const running = await this.app.serve();
    return new TestServer(running);
  }

  /** Creates a user in the app's database (migrated by `serve()` first); throws when refused. */
  async createUser(input: CreateUserInput): Promise<User> {
    const services = await this.app.services();
    const result = await services.get(TOKENS.createUser).execute(input);
    if (result.kind !== 'created') throw new FrameworkError('testing.user-not-created', `The test user ${input.email} was not created: ${JSON.stringify(result)}`);
    return result.user;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws when it is not). */
  json<T = unknown>(): T;
  /** Where a redirect points, relative to the server (`/login`), or null. */
  location: string | null;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A form (urlencoded), or a JSON body when `json` is set. */
  form?: Record<string, string | string[]>;
  json?: unknown;
  body?: string | Uint8Array;
  /**
   * Send the session's CSRF token with a POST, PUT, PATCH or DELETE, as a browser submitting
   * the app's own form would (default). `false` sends none: for testing the 419.
   */
  csrf?: boolean;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A running test server and browser-like clients that keep cookies and do not follow redirects. */
export class TestServer {
  constructor(private readonly running: RunningApp) {}

  get url(): string {
    return this.running.url;
  }

  client(): TestClient {
    return new TestClient(this.running.url, () => this.running.settled());
  }

  /** Resolves once the work requests left for after their answers (a mail) is done. */
  settled(): Promise<void> {
    return this.running.settled();
  }

  stop(): Promise<void> {
    return this.running.stop();
  }
}

export class TestClient {
  /** Cookies by name, as a browser would send them back. */
  readonly cookies = new Map<string, string>();
  /** The session's CSRF token, as the last page showed it (`fw_head()` or a `_token` field). */
  csrfToken: string | null = null;
  /** The last page fetched with GET: a browser sends it as `Referer` with a form it submits. */
  lastPage: string | null = null;

  /**
   * `settle` is waited for after each answer: the work the request left for after its answer
   * (a mail) is done when the call returns, so a test reads what its request caused.
   */
  constructor(
    private readonly base: string,
    private readonly settle: () => Promise<void> = () => Promise.resolve(),
  ) {}

  get(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('GET', path, options);
  }

  post(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('POST', path, options);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (UNSAFE.has(method.toUpperCase()) && options.csrf !== false && headers['x-csrf-token'] === undefined && options.form?.['_token'] === undefined) {
      // Like a browser, which has loaded one of the app's pages before it submits a form.
      if (this.csrfToken === null) await this.get('/');
      if (this.csrfToken !== null) headers['x-csrf-token'] = this.csrfToken;
    }
    if (UNSAFE.has(method.toUpperCase()) && this.lastPage !== null) headers['referer'] ??= this.lastPage;
    let body: string | Uint8Array | undefined = options.body;
    if (options.form !== undefined) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(options.form)) for (const item of [value].flat()) params.append(key, item);
      body = params.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    if (this.cookies.size > 0 && headers['cookie'] === undefined) {
      headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    // node:http rather than fetch: fetch drops a Host header, and tests of domains need one.
    const target = new URL(path, this.base);
    const response = await send(target, method, headers, body);
    await this.settle();
    if (method.toUpperCase() === 'GET' && (response.headers.get('content-type') ?? '').startsWith('text/html')) this.lastPage = target.href;
    for (const line of response.headers.getSetCookie()) this.remember(line);
    const token = /<meta name="csrf-token" content="([^"]+)"|name="_token" value="([^"]+)"/u.exec(response.text);
    if (token !== null) this.csrfToken = token[1] ?? token[2] ?? null;
    return {
      status: response.status,
      headers: response.headers,
      text: response.text,
      json: <T>() => JSON.parse(response.text) as T,
      location: response.headers.get('location'),
    };
  }

  private remember(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/iu.test(attribute) || /^\s*expires=thu, 01 jan 1970/iu.test(attribute));
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

export { App };

function send(url: URL, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const received = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const item of [value ?? []].flat()) received.append(name, item);
        }
        resolve({ status: incoming.statusCode ?? 0, headers: received, text: Buffer.concat(chunks).toString('utf8') });
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
