import { Container } from 'inversify';
import type { AppKeys } from '../domain/security/app-keys.js';
import { bindAccess } from './bindings/access.js';
import { bindActivityLog } from './bindings/audit.js';
import { bindAuth } from './bindings/auth.js';
import { bindCache } from './bindings/cache.js';
import { coreArea } from './bindings/core.js';
import type { CoreValues } from './bindings/core.js';
import { bindData } from './bindings/data.js';
import { bindLang } from './bindings/lang.js';
import { bindLinkedAccounts } from './bindings/oauth.js';
import { bindNotificationStore } from './bindings/notifications.js';
import type { Area, Binding, Overrides } from './bindings/provide.js';
import { bindSchedule } from './bindings/schedule.js';
import { bindSessions } from './bindings/sessions.js';
import { bindStorage } from './bindings/storage.js';
import { bindTwoFactor } from './bindings/two-factor.js';
import { bindUsers } from './bindings/users.js';
import type { ChosenAdapters, Closer } from './chosen-adapters.js';
import type { Config } from './config.js';
import { appServices } from './services.js';
import type { AppServices } from './services.js';

export { Overrides, provide, resolve } from './bindings/provide.js';
export type { Area, Binding } from './bindings/provide.js';

export interface ContainerParts extends CoreValues {
  config: Config;
  /** APP_KEY's derived keys, computed once at boot. */
  keys: AppKeys;
  /** How the ports a setting chooses are made (only the chosen adapters are loaded). */
  adapters: ChosenAdapters;
  /** Services the app brings instead of the defaults. */
  overrides: Overrides;
  /** What boot opened before (the database, the log's buffer); built services add theirs. */
  closers: Closer[];
}

/**
 * The areas every app has, in the order they bind (an area's factories may name tokens of any
 * other: nothing is built until first asked for). The app adds the areas that depend on what it
 * declared (views, mail, queue, events, webhooks) and its modules' own.
 */
const FRAMEWORK_AREAS: readonly Area[] = [
  bindData,
  bindCache,
  bindSessions,
  bindUsers,
  bindAccess,
  bindLang,
  bindStorage,
  bindAuth,
  bindTwoFactor,
  bindLinkedAccounts,
  bindActivityLog,
  bindNotificationStore,
  bindSchedule,
];

/**
 * The composition root. Binds, in this order and before anything is built: the app's overrides,
 * what boot already opened (configuration, keys, logger, database), the framework's areas, then
 * `areas` (the app's and its modules'). A token bound twice stops start-up. Returns the services
 * over the container; each service that opens something adds its close to `closers`, and
 * closing the services runs them newest first.
 */
export function buildServices(parts: ContainerParts, areas: readonly Area[]): AppServices {
  const container = new Container({ defaultScope: 'Singleton' });
  const { closers } = parts;
  const binding: Binding = {
    container,
    config: parts.config,
    keys: parts.keys,
    adapters: parts.adapters,
    onClose: (close) => void closers.push(close),
    overrides: parts.overrides,
  };
  parts.overrides.bindInto(container);
  for (const area of [coreArea(parts), ...FRAMEWORK_AREAS, ...areas]) area(binding);
  return appServices(parts.config, container, closers);
}
