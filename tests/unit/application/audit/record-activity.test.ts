import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { InProcessEventBus } from '../../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import { InMemoryActivityLog } from '../../../../adapters/persistence/memory/in-memory-activity-log.js';
import { RecordActivity } from '../../../../application/audit/record-activity.js';
import { LoggedIn, LoggedOut, PasswordChanged, PasswordReset, Registered, Verified } from '../../../../domain/auth/events.js';
import { AccountLinked, AccountUnlinked, LoggedInWith } from '../../../../domain/oauth/events.js';
import type { RequestOrigin } from '../../../../ports/request-origin.js';

const ORIGIN: RequestOrigin = { ipAddress: '198.51.100.7', requestId: 'req-42' };

function setup() {
  const log = new InMemoryActivityLog();
  const clock = new FixedClock('2026-03-01T12:00:00Z');
  const audit = new RecordActivity(log, clock);
  return {
    log,
    clock,
    audit,
    all: async () => (await log.recent({ limit: 100 })).reverse().map(({ id: _id, ...entry }) => entry),
  };
}

describe('RecordActivity (the Audit module)', () => {
  it.each([
    ["AccountLinked(3, 'provider_a')", new AccountLinked(3, 'provider_a'), 'oauth.linked', { provider: 'provider_a' }],
    ["AccountUnlinked(3, 'provider_b')", new AccountUnlinked(3, 'provider_b'), 'oauth.unlinked', { provider: 'provider_b' }],
    ["LoggedInWith(3, 'provider_a', true)", new LoggedInWith(3, 'provider_a', true), 'oauth.login', { provider: 'provider_a' }],
    ["Registered(3, 'Ann', 'ann@example.com', 'provider_a')", new Registered(3, 'Ann', 'ann@example.com', 'provider_a'), 'auth.registered', { provider: 'provider_a' }],
    ["Registered(3, 'Ann', 'ann@example.com', null)", new Registered(3, 'Ann', 'ann@example.com', null), 'auth.registered', { provider: null }],
    ["LoggedIn(3, true, 'password')", new LoggedIn(3, true, 'password'), 'auth.login', { method: 'password' }],
    ["LoggedIn(3, false, 'provider_a')", new LoggedIn(3, false, 'provider_a'), 'auth.login', { method: 'provider_a' }],
    ["LoggedOut(3)", new LoggedOut(3), 'auth.logout', {}],
    ["PasswordReset(3)", new PasswordReset(3), 'auth.password_reset', {}],
    ['PasswordChanged(3, true)', new PasswordChanged(3, true), 'auth.password_changed', { had_password: true }],
    ['PasswordChanged(3, false): a first password set', new PasswordChanged(3, false), 'auth.password_changed', { had_password: false }],
  ])('%s → %s', async (_name, event, action, data) => {
    const { audit, all, clock } = setup();
    expect(audit.handles(event)).toBe(true);

    await audit.record(event, ORIGIN);

    expect(await all()).toEqual([{ action, userId: 3, data, ipAddress: '198.51.100.7', requestId: 'req-42', at: clock.now() }]);
  });

  it('never writes the name or the address a Registered event carries: ids and the provider only', async () => {
    const { audit, all } = setup();
    await audit.record(new Registered(3, 'Ann', 'ann@example.com', null), ORIGIN);
    expect(JSON.stringify(await all())).not.toMatch(/Ann|ann@example\.com/u);
  });

  it('outside a request (a command, a job) the address and request id are null; the time is the clock\'s', async () => {
    const { audit, all, clock } = setup();
    clock.advance(90_000);
    await audit.record(new AccountUnlinked(5, 'provider_a'), null);
    expect(await all()).toEqual([{ action: 'oauth.unlinked', userId: 5, data: { provider: 'provider_a' }, ipAddress: null, requestId: null, at: new Date('2026-03-01T12:01:30Z') }]);
  });

  it('handles exactly its EVENTS; recording anything else is a wiring bug (TypeError)', async () => {
    const { audit } = setup();
    expect(RecordActivity.EVENTS).toEqual([AccountLinked, AccountUnlinked, LoggedInWith, Registered, LoggedIn, LoggedOut, PasswordReset, PasswordChanged]);
    expect(audit.handles(new Verified(1))).toBe(false);
    expect(audit.handles({ userId: 1, provider: 'provider_a' })).toBe(false);
    await expect(audit.record(new Verified(1), ORIGIN)).rejects.toThrow(TypeError);
  });

  it('wired on the bus with listen() per class, it writes one entry per event, in order', async () => {
    const { audit, all, log } = setup();
    const bus = new InProcessEventBus(new MemoryLogger());
    for (const type of RecordActivity.EVENTS) bus.listen(type, (event, origin) => audit.record(event, origin));

    for (const event of [new Registered(7, 'A', 'a@example.com', 'provider_b'), new AccountLinked(7, 'provider_b'), new LoggedInWith(7, 'provider_b', false), new LoggedIn(7, false, 'provider_b'), new Verified(7)]) {
      await bus.from(ORIGIN).publish(event);
    }

    expect((await all()).map((e) => e.action)).toEqual(['auth.registered', 'oauth.linked', 'oauth.login', 'auth.login']);
    expect(await log.recent({ userId: 7, action: 'oauth.login', limit: 5 })).toHaveLength(1);
  });

  it("on the bus: a request's view of it stamps each event with that request's origin, even when two requests interleave; the bus itself with none", async () => {
    const { audit, all } = setup();
    const bus = new InProcessEventBus(new MemoryLogger());
    for (const type of RecordActivity.EVENTS) bus.listen(type, (event, origin) => audit.record(event, origin));
    const first = bus.from({ ipAddress: '203.0.113.1', requestId: 'req-1' });
    const second = bus.from({ ipAddress: '203.0.113.2', requestId: 'req-2' });

    // Both publish after an await, in the opposite order of their start.
    await Promise.all([
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await first.publish(new LoggedIn(1, false, 'password'));
      })(),
      (async () => {
        await Promise.resolve();
        await second.publish(new LoggedIn(2, false, 'password'));
      })(),
    ]);
    await bus.publish(new LoggedOut(3));

    expect((await all()).map(({ userId, ipAddress, requestId }) => ({ userId, ipAddress, requestId }))).toEqual([
      { userId: 2, ipAddress: '203.0.113.2', requestId: 'req-2' },
      { userId: 1, ipAddress: '203.0.113.1', requestId: 'req-1' },
      { userId: 3, ipAddress: null, requestId: null },
    ]);
  });
});
