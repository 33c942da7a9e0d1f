import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import { TOKENS } from '../../../composition/tokens.js';
import { useEngines } from '../../support/databases.js';

const [sqlite] = useEngines();

describe('app.schedule: refused at registration', () => {
  it.each<[string, () => App, RegExp]>([
    ['a bad name', () => App.create().schedule('has space', '* * * * *', () => undefined), /name must be letters/u],
    ['a name twice', () => App.create().schedule('a', '* * * * *', () => undefined).schedule('a', '0 * * * *', () => undefined), /registered twice/u],
    ['an expression croner cannot read', () => App.create().schedule('a', '61 * * * *', () => undefined), /"a": Invalid cron expression "61 \* \* \* \*"/u],
    ['a non-positive overlap expiry', () => App.create().schedule('a', '* * * * *', () => undefined, { withoutOverlapping: { expiresAfterMinutes: 0 } }), /expiresAfterMinutes/u],
  ])('%s', (_name, build, message) => {
    expect(build).toThrow(message);
  });

  it('APP_TIMEZONE that Intl does not know stops start-up with its name', async () => {
    const app = TestApp.create({ environment: { APP_TIMEZONE: 'Mars/Olympus' }, build: (options) => App.create(options).schedule('a', '* * * * *', () => undefined) });
    await expect(app.call('schedule:list')).resolves.toMatchObject({ code: 1, stderr: expect.stringMatching(/APP_TIMEZONE must be a time zone/u) as string });
  });
});

describe('schedule:list, schedule:run (SQLite file)', () => {
  const ran: string[] = [];
  let app: TestApp;
  const clock = new FixedClock('2026-11-24T12:34:56.000Z');

  beforeAll(async () => {
    app = TestApp.create({
      clock,
      environment: { DATABASE_URL: sqlite!.url(), APP_TIMEZONE: 'Europe/Berlin' },
      build: (options) =>
        App.create(options)
          .schedule('reports:daily', '0 6 * * *', (services, run) => {
            ran.push(`${run.task} ${run.trigger} ${run.slot.toISOString()} ${services.config.app.timezone}`);
          }, { withoutOverlapping: true })
          .schedule('cleanup', '*/10 * * * * *', () => undefined, { onOneServer: false })
          .schedule('broken', '0 0 1 1 *', () => {
            throw new Error('the report server is down\n    at stack frame');
          }),
    });
    expect((await app.call('migrate')).code).toBe(0);
  });
  afterAll(() => app.close());

  it('lists name, expression, next run and last run in APP_TIMEZONE', async () => {
    const listed = await app.call('schedule:list');
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')).toEqual([
      expect.stringMatching(/^Name\s+Expression\s+Next run\s+Last run\s+Options$/u),
      expect.stringMatching(/^reports:daily\s+0 6 \* \* \*\s+2026-11-25 06:00:00 Europe\/Berlin\s+-\s+without overlapping$/u),
      expect.stringMatching(/^cleanup\s+\*\/10 \* \* \* \* \*\s+2026-11-24 13:35:00 Europe\/Berlin\s+per process\s+every process$/u),
      expect.stringMatching(/^broken\s+0 0 1 1 \*\s+2027-01-01 00:00:00 Europe\/Berlin\s+-\s+-$/u),
    ]);
    const json = JSON.parse((await app.call('schedule:list', ['--json'])).stdout) as { name: string; nextRun: string }[];
    expect(json.map((row) => [row.name, row.nextRun])).toEqual([
      ['reports:daily', '2026-11-25T05:00:00.000Z'],
      ['cleanup', '2026-11-24T12:35:00.000Z'],
      ['broken', '2026-12-31T23:00:00.000Z'],
    ]);
  });

  it('schedule:run runs a task now, records it, and the list shows it as the last run', async () => {
    const result = await app.call('schedule:run', ['reports:daily']);
    expect(result).toMatchObject({ code: 0, stdout: 'Running reports:daily…\nreports:daily done.' });
    expect(ran).toEqual(['reports:daily manual 2026-11-24T12:34:56.000Z Europe/Berlin']);
    const runs = await (await app.app.services()).get(TOKENS.scheduleRuns).ofTask('reports:daily');
    expect(runs).toMatchObject([{ trigger: 'manual', status: 'done', error: null }]);
    expect((await app.call('schedule:list')).stdout).toMatch(/reports:daily .* 2026-11-24 13:34:56 done/u);
  });

  it('a failing task: status 1, the failure recorded with its first line only, the stack in the log', async () => {
    clock.advance(1000);
    const result = await app.call('schedule:run', ['broken']);
    expect(result).toMatchObject({ code: 1, stderr: 'broken failed; the log has the error.' });
    const [run] = await (await app.app.services()).get(TOKENS.scheduleRuns).ofTask('broken');
    expect(run).toMatchObject({ status: 'failed', error: 'Error: the report server is down' });
    expect(app.logs.some((line) => line.message === 'scheduled task failed')).toBe(true);
  });

  it('withoutOverlapping: a manual run is refused while a run of the task is unfinished', async () => {
    clock.advance(1000);
    const runs = (await app.app.services()).get(TOKENS.scheduleRuns);
    await runs.claim({ task: 'reports:daily', slot: new Date('2026-11-24T05:00:00Z'), trigger: 'schedule', holder: 'elsewhere:1', startedAt: clock.now(), overlapSince: null });
    const result = await app.call('schedule:run', ['reports:daily']);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/not run: its previous run has not finished/u) as string });
    expect(ran).toHaveLength(1);
  });

  it('an unknown name: status 1 and where to look; no name: the usage', async () => {
    expect(await app.call('schedule:run', ['nope'])).toMatchObject({ code: 1, stderr: expect.stringContaining('No scheduled task is named "nope"') as string });
    expect((await app.call('schedule:run', [])).code).toBe(2);
  });

  it('--help lists the three commands', async () => {
    const help = await app.call('--help');
    for (const name of ['schedule:list', 'schedule:run <name>', 'schedule:work']) expect(help.stdout).toContain(name);
  });
});

describe('serve runs the scheduler unless SCHEDULER=false', () => {
  for (const enabled of [true, false]) {
    it(`SCHEDULER=${String(enabled)}`, async () => {
      const slots: string[] = [];
      const app = TestApp.create({
        environment: { DATABASE_URL: sqlite!.url(), SCHEDULER: String(enabled) },
        build: (options) => App.create(options).schedule('tick', '* * * * * *', (_services, run) => void slots.push(run.slot.toISOString())),
      });
      const running = await app.app.serve();
      try {
        await sleep(2300);
      } finally {
        await running.stop();
      }
      if (enabled) expect(slots.length).toBeGreaterThanOrEqual(1);
      else expect(slots).toEqual([]);
      expect(new Set(slots).size).toBe(slots.length);
    });
  }
});
