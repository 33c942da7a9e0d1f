import type { Container, ServiceIdentifier } from 'inversify';
import type { ServiceKey } from '../../adapters/http/kernel/request-context.js';
import type { AppKeys } from '../../domain/security/app-keys.js';
import { MisuseError } from '../../domain/shared/errors.js';
import type { ChosenAdapters, Closer } from '../chosen-adapters.js';
import type { Config } from '../config.js';

/** A service identifier that remembers the type it resolves to (handlers use it with `ctx.service`). */
export type Token<T> = ServiceKey<T>;

/** A token named after the service it stands for (the name shows in errors: "bound twice"). */
export function token<T>(name: string): Token<T> {
  return Symbol(name);
}

/** Lets inversify accept our typed tokens. */
export function id<T>(t: Token<T>): ServiceIdentifier<T> {
  return t;
}

type Tokens<A extends unknown[]> = { [K in keyof A]: Token<A[K]> };

/**
 * Services an app brings in place of the container's defaults (a test's clock, the outgoing
 * HTTP client, `app.accessPolicy(…)`): bound first, before the defaults, so nothing is built and
 * then replaced.
 */
export class Overrides {
  private readonly values = new Map<ServiceIdentifier, unknown>();

  set<T>(t: Token<T>, value: T): this {
    this.values.set(id(t), value);
    return this;
  }

  has(t: Token<unknown>): boolean {
    return this.values.has(id(t));
  }

  /** Binds every override as a constant. */
  bindInto(container: Container): void {
    for (const [key, value] of this.values) container.bind(key).toConstantValue(value);
  }
}

/** How a service bound by `provide` is made: the tokens it is built from, and its factory. */
export interface Recipe {
  readonly deps: readonly symbol[];
  readonly factory: (...args: never[]) => unknown;
}

/** Every container's recipes, by token: a request's view of the services builds some again (`composition/request-scope.ts`). */
const RECIPES = new WeakMap<Container, Map<symbol, Recipe>>();

/** How `container` makes the service of `key`, if `provide` bound it (not a constant nor an override). */
export function recipeOf(container: Container, key: symbol): Recipe | undefined {
  return RECIPES.get(container)?.get(key);
}

/**
 * Binds `token` to what `factory` builds from the services named by `deps`, once per
 * container. The tuple of tokens is checked against the factory's parameters. A token bound
 * twice is a mistake (two modules claiming one service): it stops start-up naming the token,
 * rather than the later binding silently replacing the earlier one. The recipe is kept: a
 * service built on the event bus is built again for each request that asks for it, around
 * the request's own view of the bus.
 */
export function provide<T, A extends unknown[]>(container: Container, t: Token<T>, deps: Tokens<A>, factory: (...args: A) => T): void {
  if (container.isBound(id(t))) throw new MisuseError('app.bound-twice', `The service ${String(id(t))} is bound twice`);
  container
    .bind<T>(id(t))
    .toResolvedValue(factory, deps as never)
    .inSingletonScope();
  let recipes = RECIPES.get(container);
  if (recipes === undefined) RECIPES.set(container, (recipes = new Map<symbol, Recipe>()));
  recipes.set(t, { deps, factory });
}

export function resolve<T>(container: Container, t: Token<T>): T {
  return container.get<T>(id(t));
}

/**
 * What every area's bindings are made with: the container being filled, what boot opened or
 * derived before it (the configuration, APP_KEY's keys, the adapters the settings chose) and the
 * app's overrides. Nothing is resolved while areas bind: services are built on first use.
 */
export interface Binding {
  readonly container: Container;
  readonly config: Config;
  readonly keys: AppKeys;
  readonly adapters: ChosenAdapters;
  /** Where a built service registers what releases it when the app closes. */
  readonly onClose: (close: Closer) => void;
  readonly overrides: Overrides;
}

/** One area's bindings (users, sessions, mail, queue…): a function of the shared `Binding`. */
export type Area = (binding: Binding) => void;

/** `provide`, unless the app brought its own (`overrides`): the framework's default for a port. */
export function provideDefault<T, A extends unknown[]>(binding: Binding, t: Token<T>, deps: Tokens<A>, factory: (...args: A) => T): void {
  if (!binding.overrides.has(t)) provide(binding.container, t, deps, factory);
}
