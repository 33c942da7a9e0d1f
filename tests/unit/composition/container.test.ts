import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { Overrides, buildServices, provide, resolve } from '../../../composition/container.js';
import type { ContainerParts } from '../../../composition/container.js';
import type { ChosenAdapters } from '../../../composition/chosen-adapters.js';
import { deriveAppKeys } from '../../../domain/security/app-keys.js';
import type { Database } from '../../../adapters/persistence/mikro-orm/database.js';
import type { Logger } from '../../../ports/logger.js';
import { appServices } from '../../../composition/services.js';
import { parseConfig } from '../../../composition/config.js';
import { TOKENS } from '../../../composition/tokens.js';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import * as accessArea from '../../../composition/bindings/access.js';
import * as auditArea from '../../../composition/bindings/audit.js';
import * as authMailArea from '../../../composition/bindings/auth-mail.js';
import * as authArea from '../../../composition/bindings/auth.js';
import * as cacheArea from '../../../composition/bindings/cache.js';
import * as coreArea from '../../../composition/bindings/core.js';
import * as dataArea from '../../../composition/bindings/data.js';
import * as eventsArea from '../../../composition/bindings/events.js';
import * as langArea from '../../../composition/bindings/lang.js';
import * as mailArea from '../../../composition/bindings/mail.js';
import * as notificationsArea from '../../../composition/bindings/notifications.js';
import * as oauthArea from '../../../composition/bindings/oauth.js';
import * as queueArea from '../../../composition/bindings/queue.js';
import * as scheduleArea from '../../../composition/bindings/schedule.js';
import * as sessionsArea from '../../../composition/bindings/sessions.js';
import * as storageArea from '../../../composition/bindings/storage.js';
import * as twoFactorArea from '../../../composition/bindings/two-factor.js';
import * as usersArea from '../../../composition/bindings/users.js';
import * as viewsArea from '../../../composition/bindings/views.js';
import * as webhooksArea from '../../../composition/bindings/webhooks.js';

const config = parseConfig({ APP_KEY: `base64:${Buffer.alloc(32, 1).toString('base64')}` }, '/srv/app');

describe('composition binds once, before anything is built', () => {
  it('a second binding of one service stops start-up naming it, instead of replacing the first', () => {
    const container = new Container();
    provide(container, TOKENS.clock, [], () => new FixedClock(new Date(0)));
    expect(() => provide(container, TOKENS.clock, [], () => new FixedClock(new Date(1)))).toThrow(/Clock.*bound twice/u);
    expect(resolve(container, TOKENS.clock).now()).toEqual(new Date(0));
  });

  it('an override is what the container gives, and is bound before the defaults', () => {
    const container = new Container();
    const clock = new FixedClock(new Date('2030-01-01T00:00:00Z'));
    const overrides = new Overrides().set(TOKENS.clock, clock);
    overrides.bindInto(container);
    expect(overrides.has(TOKENS.clock)).toBe(true);
    expect(overrides.has(TOKENS.random)).toBe(false);
    expect(resolve(container, TOKENS.clock)).toBe(clock);
  });
});

describe('buildServices binds every area before anything is built', () => {
  const built: string[] = [];
  const never = (name: string) => () => {
    built.push(name);
    throw new Error(`${name} was built`);
  };
  // The chosen adapters record being made: binding must not make any of them.
  const adapters: ChosenAdapters = { cacheStore: never('cache'), jobQueue: never('queue'), mailer: never('mailer'), storage: never('storage') };
  const parts = (overrides = new Overrides()): ContainerParts => ({
    config,
    keys: deriveAppKeys(config.app.key.reveal()),
    adapters,
    overrides,
    closers: [],
    logger: {} as Logger,
    database: {} as Database,
    migrationSources: [],
  });

  it('builds nothing while binding, and an override wins over the area default', () => {
    const clock = new FixedClock(new Date('2031-01-01T00:00:00Z'));
    const services = buildServices(parts(new Overrides().set(TOKENS.clock, clock)), []);
    expect(built).toEqual([]);
    expect(services.get(TOKENS.clock)).toBe(clock);
    expect(services.get(TOKENS.config)).toBe(config);
  });

  it("an app area binding a framework area's token stops start-up naming it", () => {
    expect(() => buildServices(parts(), [({ container }) => provide(container, TOKENS.translator, [], () => null as never)])).toThrow(/Translator.*bound twice/u);
  });
});

describe('tokens, declared by each area beside its bindings', () => {
  it('are gathered into TOKENS without one area shadowing another', () => {
    const areas: object[] = [accessArea, auditArea, authMailArea, authArea, cacheArea, coreArea, dataArea, eventsArea, langArea, mailArea, notificationsArea, oauthArea, queueArea, scheduleArea, sessionsArea, storageArea, twoFactorArea, usersArea, viewsArea, webhooksArea];
    const declared = areas.flatMap((area) => Object.entries(area).filter(([name]) => name.endsWith('_TOKENS')).flatMap(([, group]) => Object.entries(group as object)));
    expect(declared.length).toBeGreaterThan(70);
    expect(new Set(declared.map(([name]) => name)).size).toBe(declared.length);
    expect(Object.keys(TOKENS).length).toBe(declared.length);
    for (const [name, symbol] of declared) expect(TOKENS[name as keyof typeof TOKENS]).toBe(symbol);
  });
});

describe('closing the app', () => {
  it('runs every registered close newest first, even after one fails, then throws the first failure', async () => {
    const order: string[] = [];
    const services = appServices(config, new Container(), [
      () => void order.push('database'),
      () => {
        order.push('queue');
        throw new Error('queue close failed');
      },
      () => void order.push('redis'),
    ]);
    await expect(services.close()).rejects.toThrow('queue close failed');
    expect(order).toEqual(['redis', 'queue', 'database']);
  });
});
