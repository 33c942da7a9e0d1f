import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { Overrides, provide, resolve } from '../../../composition/container.js';
import { appServices } from '../../../composition/services.js';
import { parseConfig } from '../../../composition/config.js';
import { TOKENS } from '../../../composition/tokens.js';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';

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
