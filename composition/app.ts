import { keepYoungGenerationSmall } from './young-generation.js';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliKernel } from '../adapters/cli/kernel.js';
import type { CommandIO } from '../adapters/cli/command.js';
import { scriptedInput } from '../adapters/cli/scripted-input.js';
import type { LimiterRule } from '../adapters/http/kernel/stages/throttle.js';
import type { SharedValue } from '../adapters/http/kernel/view-globals.js';
import type { WebhookVerifier } from '../adapters/http/webhooks.js';
import type { ContextKey, Handler, Middleware, RequestContext } from '../adapters/http/kernel/request-context.js';
import { PinoLogger } from '../adapters/log/pino-logger.js';
import { RegisteredAccessPolicy } from '../adapters/access/registered-access-policy.js';
import type { Gate, NamesOf } from '../adapters/access/registered-access-policy.js';
import type { AccessPolicy } from '../ports/access-policy.js';
import type { TokenVerifier } from '../ports/token-verifier.js';
import type { EventClass } from '../ports/event-bus.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { MigrationSource } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import type { GeneratedMigration } from '../domain/data/search.js';
import { buildRouteTable } from '../domain/http/routing/route-table.js';
import { uiSinkRoutes } from '../adapters/http/dev/ui-sink-routes.js';
import type { RouteTable } from '../domain/http/routing/route-table.js';
import type { Routes } from '../domain/http/routing/routes.js';
import type { Environment } from 'nunjucks';
import { buildFetchHandler, startHttpServer } from './http.js';
import type { HttpParts } from './http.js';
import type { FetchConnection, FetchHandler } from '../adapters/http/fetch/fetch-handler.js';
import { AfterResponseWork } from '../adapters/http/after-response.js';
import type { DevTools } from '../adapters/http/dev-tools/dev-tools.js';
import { deriveAppKeys } from '../domain/security/app-keys.js';
import type { Clock } from '../ports/clock.js';
import type { HttpClient } from '../ports/http-client.js';
import type { Logger } from '../ports/logger.js';
import { frameworkCommands } from './commands.js';
import { Overrides, buildServices } from './container.js';
import type { Area } from './container.js';
import { createDevTools, recordingLogger, recordingMailer } from './dev-tools.js';
import { authMailArea, SendAuthMail } from './bindings/auth-mail.js';
import { eventsArea } from './bindings/events.js';
import { mailArea } from './bindings/mail.js';
import { queueArea } from './bindings/queue.js';
import { viewsArea } from './bindings/views.js';
import { DeliverWebhook, webhooksArea } from './bindings/webhooks.js';
import type { OutgoingWebhooksOptions } from './bindings/webhooks.js';
import { createWorker, registeredQueues } from './queue.js';
import { DEFAULT_QUEUE } from '../domain/queue/job-options.js';
import { loadConfig } from './config.js';
import type { Config } from './config.js';
import { ensureAppKey } from './env-file.js';
import type { EnvValues } from './env-file.js';
import type { AppListener, Module, ModuleClass, Seeder } from './module.js';
import { chooseAdapters } from './chosen-adapters.js';
import type { Closer } from './chosen-adapters.js';
import type { AppServices } from './services.js';
import { TOKENS } from './tokens.js';
import { checkScheduleEntry, startScheduler } from './schedule.js';
import type { ScheduleEntry, ScheduledFunction, ScheduleOptions } from './schedule.js';
import type { RegisteredJob } from './jobs.js';
import type { JobRegistry } from './queue.js';
import type { JobWorker, WorkerOptions } from '../adapters/worker/job-worker.js';
import { FrameworkError, MisuseError } from '../domain/shared/errors.js';

/**
 * The framework's own folder (where its `migrations/` and `templates/` live), found by walking
 * up from this file: the same folder from the TypeScript sources and from `dist/`.
 */
export const FRAMEWORK_ROOT = findFrameworkRoot(dirname(fileURLToPath(import.meta.url)));

function findFrameworkRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'migrations')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new FrameworkError('app.framework-not-found', `The framework's folder (with migrations/) was not found above ${start}`);
  }
}

export interface AppOptions {
  /** The app's folder: `.env`, `storage/`, its own `migrations/`. Defaults to the working directory. */
  root?: string;
  /** Values that win over `.env`; defaults to `process.env`. */
  environment?: EnvValues;
  /** The `.env` file under `root`; `false` reads none. */
  envFile?: string | false;
  /** A logger instead of the one the configuration describes (tests). */
  logger?: Logger;
  /** A clock instead of the system's (tests that move time). */
  clock?: Clock;
  /** The client of every outgoing call instead of `fetch` (tests: `TestApp.fakeHttp`). */
  httpClient?: HttpClient;
}

export interface RunningApp {
  readonly url: string;
  readonly services: AppServices;
  /** Resolves once the work requests left for after their answers (`ctx.afterResponse`) is done. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The public builder of an app:
 *
 *     const app = App.create().module(Auth.create().account());
 *     await app.serve();
 *
 * Nothing is read or opened until a command or `serve` needs it; then the configuration is
 * loaded once, the database opened once, and the container built once.
 */
export class App {
  private readonly modules: Module[] = [];
  private readonly layers: Middleware[] = [];
  private readonly provided = new Map<symbol, unknown>();
  private readonly shares: SharedValue[] = [];
  private readonly templateHooks: ((env: Environment) => void)[] = [];
  private sendXsrfCookie = false;
  private readonly rateLimiters = new Map<string, LimiterRule>();
  private readonly webhooks = new Map<string, WebhookVerifier>();
  private readonly registeredPolicy = new RegisteredAccessPolicy();
  private customPolicy: AccessPolicy | null = null;
  private customTokens: TokenVerifier | null = null;
  private readonly listeners: { type: EventClass<object>; listener: AppListener<never> }[] = [];
  private booted: Promise<AppServices> | null = null;
  private readonly scheduled: ScheduleEntry[] = [];
  private outgoing: OutgoingWebhooksOptions | null = null;
  private readonly registeredJobs = new Map<string, RegisteredJob>();
  private readonly generatedMigrations: GeneratedMigration[] = [];
  /** Live reload and the request inspector: made at boot while debugging locally, null otherwise. */
  private devTools: DevTools | null = null;

  private constructor(private readonly options: AppOptions) {
    // The Auth module's mails, queued unless QUEUE_CONNECTION=sync; every app's workers can send them.
    this.job(SendAuthMail);
  }

  static create(options: AppOptions = {}): App {
    return new App(options);
  }

  get root(): string {
    return this.options.root ?? process.cwd();
  }

  module(module: Module): this {
    if (this.modules.some((existing) => existing.name === module.name)) {
      throw new MisuseError('app.module-twice', `The module "${module.name}" is registered twice`);
    }
    this.modules.push(module);
    for (const job of module.jobs ?? []) this.job(job);
    module.register?.({
      find: <M extends Module>(type: ModuleClass<M>) => (this.modules.find((m) => m instanceof type) as M | undefined) ?? null,
      share: (name, compute) => this.share(name, compute),
      listen: (type, listener) => this.listen(type, listener),
    });
    return this;
  }

  /** A queued job (`defineJob`) this app's workers run; names are unique. */
  job(definition: RegisteredJob): this {
    if (this.registeredJobs.has(definition.name)) throw new MisuseError('queue.job-twice', `The job "${definition.name}" is registered twice`);
    this.registeredJobs.set(definition.name, definition);
    return this;
  }

  /** The app's jobs by name. */
  jobRegistry(): JobRegistry {
    return this.registeredJobs;
  }

  /**
   * A worker over this app's queue and jobs (`queue:work`); `queues` defaults to every queue
   * the app's jobs name, `default` first. `run()` it; `stop()` finishes the running jobs.
   */
  async worker(options: Partial<WorkerOptions> = {}): Promise<JobWorker> {
    const services = await this.services();
    return createWorker(services, this.registeredJobs, this.provided, {
      ...options,
      queues: options.queues ?? registeredQueues(this.registeredJobs),
      concurrency: options.concurrency ?? 1,
    });
  }

  /** Middleware around every route of the app's modules; the first added is outermost. */
  layer(middleware: Middleware): this {
    this.layers.push(middleware);
    return this;
  }

  /** A value handlers read with `ctx.provided(key)`. */
  provide<T>(key: ContextKey<T>, value: T): this {
    this.provided.set(key, value);
    return this;
  }

  /** A value every view receives under `name`, computed once per request. */
  share(name: string, compute: (ctx: RequestContext) => unknown): this {
    this.shares.push({ name, compute });
    return this;
  }

  /** Customises the template environment (filters, globals): `app.templates(env => env.addFilter(…))`. */
  templates(configure: (env: Environment) => void): this {
    this.templateHooks.push(configure);
    return this;
  }

  /**
   * Also send the CSRF token as the `XSRF-TOKEN` cookie, readable by scripts, and accept it back
   * in the `X-XSRF-TOKEN` header (what Axios and Angular do by themselves).
   */
  xsrfCookie(): this {
    this.sendXsrfCookie = true;
    return this;
  }

  /**
   * A named limiter for `.throttleBy(name)`: the rule sees the user, IP, method, path and
   * headers and returns a `Limit` (`Limit.perMinute(10).by(…)`, or `Limit.none()`).
   */
  rateLimiter(name: string, rule: LimiterRule): this {
    if (this.rateLimiters.has(name)) throw new MisuseError('rate-limit.limiter-twice', `The rate limiter "${name}" is registered twice`);
    this.rateLimiters.set(name, rule);
    return this;
  }

  /**
   * The signature check `Routes.webhook(path, name, handler)` routes use: it gets the headers
   * and the body's bytes and says yes or no (no is a 403). `hmacSha256Webhook({ header,
   * secret, prefix })` is the usual one. A webhook route naming no registered check stops start-up.
   */
  webhook(name: string, verifier: WebhookVerifier): this {
    if (this.webhooks.has(name)) throw new MisuseError('webhooks.incoming-twice', `The webhook "${name}" is registered twice`);
    this.webhooks.set(name, verifier);
    return this;
  }

  /**
   * A gate or policy: `app.gate('update-post', (user, post) => post.authorId === user.id)`.
   * `requireGate(name)` and `ctx.user.authorize(name, resource)` ask it; unknown names are refused.
   */
  gate(ability: string, gate: Gate): this {
    this.registeredPolicy.define(ability, gate);
    return this;
  }

  /** Where the user's roles come from, for `requireRole(name)` and `user.hasRole(name)`. */
  roles(lookup: NamesOf): this {
    this.registeredPolicy.roles(lookup);
    return this;
  }

  /** Where the user's permissions come from, for `requirePermission(name)` and `requireGate(name)`. */
  permissions(lookup: NamesOf): this {
    this.registeredPolicy.permissions(lookup);
    return this;
  }

  /** Replaces gates, roles and permissions with a policy of the app's own (a permissions module). */
  accessPolicy(policy: AccessPolicy): this {
    this.customPolicy = policy;
    return this;
  }

  /**
   * Who an `Authorization: Bearer` token signs in. By default tokens issued into the
   * `api_tokens` table (`SqlTokenVerifier.issue`); an app with its own format gives its own.
   */
  tokenVerifier(verifier: TokenVerifier): this {
    this.customTokens = verifier;
    return this;
  }

  /**
   * Runs `listener` after each event of that class (`Registered`, `LoggedIn`, …), in the order
   * registered; a listener that fails is logged and does not undo the event. It gets the
   * event, the app's services and the origin: the client address and request id of the
   * request whose handler published the event (through `ctx.service(…)`), null outside one.
   */
  listen<E extends object>(type: EventClass<E>, listener: AppListener<E>): this {
    this.listeners.push({ type, listener });
    return this;
  }

  /**
   * A task run on a cron expression, read in APP_TIMEZONE: five fields (minute hour day month
   * weekday) or six with seconds first. `serve` and `schedule:work` run it; each slot runs once
   * across every process of the app. `app.schedule('reports:daily', '0 6 * * *', async
   * (services) => …, { withoutOverlapping: true })`.
   */
  schedule(name: string, cron: string, task: ScheduledFunction, options: ScheduleOptions = {}): this {
    const entry = { name, expression: cron, run: task, options };
    checkScheduleEntry(entry, this.scheduled);
    this.scheduled.push(entry);
    return this;
  }

  /**
   * Turns on `webhooks.send(url, event, payload)` (`services.get(TOKENS.webhooks)`): deliveries
   * are recorded in `webhook_deliveries` and attempted by the job `fw.webhooks.deliver` on the
   * queue `webhooks` (a worker runs it: `serve`, or `queue:work --queue webhooks`), signed with
   * the endpoint's `whsec_` secret.
   */
  outgoingWebhooks(options: OutgoingWebhooksOptions = {}): this {
    if (this.outgoing !== null) throw new MisuseError('webhooks.outgoing-twice', 'outgoingWebhooks() is called twice');
    this.outgoing = options;
    return this.job(DeliverWebhook);
  }

  /** The app's scheduled tasks, in the order registered. */
  scheduleEntries(): readonly ScheduleEntry[] {
    return this.scheduled;
  }

  /** Set at boot: the kitchen sink `/_fw/ui` is served (APP_DEBUG on, APP_ENV=local). */
  private uiSinkEnabled = false;

  /** Every route of the app's modules, validated: duplicate names or routes stop start-up. */
  routeTable(): RouteTable<Handler> {
    return buildRouteTable(this.moduleRoutes());
  }

  /** The modules' routes, and the UI kit's kitchen sink (it answers 404 unless APP_DEBUG is on and APP_ENV=local). */
  private moduleRoutes(): { module: string; routes: Routes<Handler> }[] {
    return [
      ...this.modules.flatMap((module) => (module.routes === undefined ? [] : [{ module: module.name, routes: module.routes }])),
      { module: 'fw-dev-ui', routes: uiSinkRoutes({ enabled: () => this.uiSinkEnabled, stylesheets: kitStylesheets }) },
    ];
  }

  /** The app's routes and the framework's own local-debugging pages (`/_fw/debug`). */
  private routeTableWith(extra: { module: string; routes: Routes<Handler> }): RouteTable<Handler> {
    return buildRouteTable([...this.moduleRoutes(), extra]);
  }

  /**
   * Migrations made in code, run in timestamp order with the files (the spec's
   * `App::migrations`): `app.migrations(searchMigration(Post, '20261125100001_posts_search'))`.
   */
  migrations(...migrations: GeneratedMigration[]): this {
    this.generatedMigrations.push(...migrations);
    return this;
  }

  /** The core module first, then the app's modules in the order given, then the app's own folder and its migrations made in code. */
  migrationSources(): MigrationSource[] {
    const sources: MigrationSource[] = [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }];
    for (const module of this.modules) if (module.migrations !== undefined) sources.push({ module: module.name, directory: module.migrations });
    const own = join(this.root, 'migrations');
    if (resolvePath(own) !== join(FRAMEWORK_ROOT, 'migrations') && existsSync(own)) sources.push({ module: 'app', directory: own });
    for (const module of this.modules) if (module.generatedMigrations !== undefined) sources.push({ module: module.name, files: module.generatedMigrations.flatMap((migration) => migration.files) });
    if (this.generatedMigrations.length > 0) sources.push({ module: 'app', files: this.generatedMigrations.flatMap((migration) => migration.files) });
    return sources;
  }

  seeders(): Seeder[] {
    return this.modules.flatMap((module) => module.seeders ?? []);
  }

  /** Loads the configuration, opens the database and builds the container, once. */
  services(): Promise<AppServices> {
    this.booted ??= this.boot().catch((error: unknown) => {
      this.booted = null;
      throw error;
    });
    return this.booted;
  }

  /** Releases the database; the next command boots again. */
  async close(): Promise<void> {
    await this.fetchWork.settled();
    const booted = this.booted;
    this.booted = null;
    this.fetchHandler = null;
    if (booted !== null) await (await booted.catch(() => null))?.close();
  }

  /** The command line of this app (`fwx`), run in-process. */
  kernel(): AppKernel {
    const kernel = new CliKernel('fwx', [
      ...frameworkCommands(this),
      ...this.modules.flatMap((module) => module.commands?.(() => this.services()) ?? []),
    ]);
    return new AppKernel(kernel);
  }

  /**
   * What `npm start` does: gives a first run a `.env` with a fresh APP_KEY, runs the
   * migrations, and serves on HOST:PORT.
   */
  async serve(): Promise<RunningApp> {
    if (this.options.envFile !== false) {
      const envFile = join(this.root, this.options.envFile ?? '.env');
      await ensureAppKey(envFile, join(this.root, '.env.example'), this.environment());
    }
    const services = await this.migratedServices();
    const logger = services.get(TOKENS.logger);
    const afterResponse = new AfterResponseWork();
    const server = await startHttpServer(services, this.httpParts(afterResponse));
    logger.info('serving', { url: services.config.app.url, listening: server.uri, transport: services.config.http.transport });
    // The scheduler of this process, unless SCHEDULER=false (another process runs `schedule:work`).
    const scheduler = services.config.scheduler.enabled && this.scheduled.length > 0 ? await startScheduler(this.scheduled, services) : null;
    const worker = this.serveWorker(services);
    return {
      url: server.uri,
      services,
      settled: () => afterResponse.settled(),
      stop: async () => {
        await scheduler?.stop();
        // Open live-reload streams would hold the server's stop up to its timeout.
        this.devTools?.endStreams();
        await server.stop(10_000);
        // Mails and other work the last requests left for after their answers are not lost.
        await afterResponse.settled();
        // Takes no new job and lets the running ones finish before the database closes.
        await worker?.stop();
        await this.close();
      },
    };
  }

  /**
   * The app as a WHATWG fetch handler, for a host that has its own server (node:http, a
   * Hono-style runtime) or for tests without a socket:
   *
   *     const response = await app.fetch(new Request('http://localhost/health'));
   *
   * The first call boots the app and runs the migrations, as `serve` does. `connection` tells
   * what the request does not carry: the peer's address (`ctx.ip`).
   */
  readonly fetch = (request: Request, connection?: FetchConnection): Promise<Response> => {
    this.fetchHandler ??= this.startFetchHandler().catch((error: unknown) => {
      this.fetchHandler = null;
      throw error;
    });
    return this.fetchHandler.then((handler) => handler(request, connection));
  };

  private fetchHandler: Promise<FetchHandler> | null = null;
  /** The work `app.fetch` requests left for after their answers; `close()` waits for it. */
  private readonly fetchWork = new AfterResponseWork();

  private async startFetchHandler(): Promise<FetchHandler> {
    return buildFetchHandler(await this.migratedServices(), this.httpParts(this.fetchWork));
  }

  /** The services, with the migrations run: what serving needs. */
  private async migratedServices(): Promise<AppServices> {
    const services = await this.services();
    const migrated = await services.get(TOKENS.migrator).migrate();
    if (migrated.ran.length > 0) services.get(TOKENS.logger).info('migrations ran', { batch: migrated.batch, migrations: migrated.ran });
    return services;
  }

  private httpParts(afterResponse: AfterResponseWork): HttpParts {
    return {
      root: this.root,
      frameworkRoot: FRAMEWORK_ROOT,
      table: this.devTools === null ? this.routeTable() : this.routeTableWith({ module: 'fw-dev-tools', routes: this.devTools.routes() }),
      layers: this.layers,
      provided: this.provided,
      shares: this.shares,
      xsrfCookie: this.sendXsrfCookie,
      rateLimiters: this.rateLimiters,
      webhooks: this.webhooks,
      afterResponse,
      devTools: this.devTools,
    };
  }

  /** `serve` runs QUEUE_SERVE_WORKERS jobs at once over every queue of the app's jobs (none with sync). */
  private serveWorker(services: AppServices): JobWorker | null {
    const { connection, serveWorkers } = services.config.queue;
    if (connection === 'sync' || serveWorkers === 0) return null;
    const worker = createWorker(services, this.registeredJobs, this.provided, { queues: registeredQueues(this.registeredJobs), concurrency: serveWorkers });
    void worker.run();
    services.get(TOKENS.logger).info('queue worker running', { queues: registeredQueues(this.registeredJobs), workers: serveWorkers, driver: connection });
    return worker;
  }

  private environment(): EnvValues {
    return this.options.environment ?? process.env;
  }

  private async boot(): Promise<AppServices> {
    const config = await this.config();
    this.uiSinkEnabled = config.app.debug && config.app.env === 'local';
    // What boot opens registers what closes it; the app closes them newest first.
    const closers: Closer[] = [];
    const onClose = (close: Closer): void => void closers.push(close);
    const output = this.options.logger ?? createLogger(config, onClose);
    // Local debugging only (null otherwise): the request inspector hears log lines, SQL, mails and events.
    const devTools = createDevTools(config, { root: this.root, frameworkRoot: FRAMEWORK_ROOT, logger: output });
    if (devTools !== null) onClose(() => devTools.close());
    const logger = devTools === null ? output : recordingLogger(output, devTools);
    // Only the adapters the settings name are loaded (S3, Redis, SMTP… stay out of a SQLite app).
    const adapters = await chooseAdapters(config);
    const keys = deriveAppKeys(config.app.key.reveal());
    const database = await openDatabase(config.database, { onQuery: devTools === null ? undefined : (sql, bindings, ms) => devTools.inspector.recordQuery(sql, bindings, ms) });
    onClose(() => database.close());
    try {
      // What the app brings in place of the defaults is bound before anything is built.
      const overrides = new Overrides().set(TOKENS.accessPolicy, this.customPolicy ?? this.registeredPolicy);
      if (this.options.clock !== undefined) overrides.set(TOKENS.clock, this.options.clock);
      if (this.options.httpClient !== undefined) overrides.set(TOKENS.httpClient, this.options.httpClient);
      if (this.customTokens !== null) overrides.set(TOKENS.tokenVerifier, this.customTokens);
      // Listeners and the inline worker reach the services they belong to, known once built.
      let built: AppServices | null = null;
      const services = (): AppServices => {
        if (built === null) throw new FrameworkError('app.services-while-binding', 'The app\'s services were asked for while they were being bound');
        return built;
      };
      const areas: Area[] = [
        viewsArea(this.root, this.templateHooks),
        mailArea(devTools === null ? null : (mailer) => recordingMailer(mailer, devTools)),
        eventsArea((bus) => {
          if (devTools !== null) bus.listen(Object, (event) => devTools.inspector.recordEvent(event));
          for (const { type, listener } of this.listeners) bus.listen(type, (event, origin) => listener(event as never, services(), origin));
        }),
        queueArea(() => {
          const inline = createWorker(services(), this.registeredJobs, this.provided, { queues: [DEFAULT_QUEUE], concurrency: 1 });
          return (job) => inline.runNow(job);
        }),
        // The mails link to the app's own routes, signed with the key derived from APP_KEY.
        authMailArea(() => this.routeTable()),
        webhooksArea(this.outgoing),
        // Each module's own bindings, after the framework's (a module may use any framework service).
        ...this.modules.map((module): Area => (binding) => module.bind?.(binding.container, binding.config)),
      ];
      built = buildServices({ config, keys, adapters, overrides, closers, logger, database, migrationSources: this.migrationSources() }, areas);
      this.devTools = devTools;
      // Start-up grew V8's young generation; it is given back at the first quiet moment.
      onClose(keepYoungGenerationSmall(config.memory.youngGeneration));
      return built;
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  /** The configuration alone, without opening anything (for commands that need no database). */
  config(): Promise<Config> {
    const environment = this.environment();
    return loadConfig({ root: this.root, environment, envFile: this.options.envFile ?? '.env' });
  }
}

/** The logger the configuration describes; its buffered lines are written when the app closes. */
function createLogger(config: Config, onClose: (close: Closer) => void): Logger {
  const logger = PinoLogger.create({ level: config.log.level, pretty: config.app.env === 'local' });
  onClose(() => logger.flush());
  return logger;
}

/** Output of a command called in-process. */
export interface CommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** What an in-process caller types at a command's prompts. */
export interface CallOptions {
  /** One answer per prompt, then the end of input. Without it, a command that asks fails. */
  input?: readonly string[];
  /** Answer as a person at a terminal would (commands ask twice for a new password). */
  interactive?: boolean;
}

export class AppKernel {
  constructor(private readonly cli: CliKernel) {}

  run(argv: readonly string[], io: CommandIO): Promise<number> {
    return this.cli.run(argv, io);
  }

  /** The spec's `kernel().call(command, args)`, collecting what the command printed. */
  async call(name: string, args: readonly string[] = [], options: CallOptions = {}): Promise<CommandOutcome> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CommandIO = { out: (line) => out.push(line), err: (line) => err.push(line) };
    if (options.input !== undefined) io.input = scriptedInput(options.input, { interactive: options.interactive ?? false });
    const code = await this.cli.call(name, args, io);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }
}

/** The UI kit's stylesheets in the framework's public/fw/ui, theme.css first (for the kitchen sink). */
function kitStylesheets(): string[] {
  const folder = join(FRAMEWORK_ROOT, 'public', 'fw', 'ui');
  const files = existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.css')).sort() : [];
  return [...files.filter((file) => file === 'theme.css'), ...files.filter((file) => file !== 'theme.css')].map((file) => `fw/ui/${file}`);
}
