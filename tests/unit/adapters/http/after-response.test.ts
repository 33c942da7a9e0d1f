import { beforeEach, describe, expect, it } from 'vitest';
import { AfterResponseWork } from '../../../../adapters/http/after-response.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import type { LogLine } from '../../../../adapters/log/memory-logger.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const ran: string[] = [];
/** A task that notes its name when it runs. */
const note = (name: string) => () => {
  ran.push(name);
  return Promise.resolve();
};

describe('work after the answer', () => {
  beforeEach(() => void ran.splice(0));

  it('waits for the answer, then runs the tasks in order; settled() waits for them from the moment they are scheduled', async () => {
    const work = new AfterResponseWork();
    const answered = deferred();
    work.schedule([note('first'), note('second')], { answered: answered.promise, log: new MemoryLogger([]) });
    await Promise.resolve();
    expect(ran).toEqual([]);
    const settled = work.settled();
    answered.resolve();
    await settled;
    expect(ran).toEqual(['first', 'second']);
  });

  it('logs a failing task at error and still runs the next one; nothing is thrown', async () => {
    const lines: LogLine[] = [];
    const work = new AfterResponseWork();
    work.schedule(
      [
        () => Promise.reject(new Error('SMTP is down')),
        note('next'),
      ],
      { answered: Promise.resolve(), log: new MemoryLogger(lines) },
    );
    await work.settled();
    expect(ran).toEqual(['next']);
    expect(lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(['work after the answer failed']);
  });

  it('settled() also waits for work scheduled while it waits', async () => {
    const work = new AfterResponseWork();
    work.schedule(
      [
        () => {
          work.schedule([note('later')], { answered: Promise.resolve(), log: new MemoryLogger([]) });
          return note('first')();
        },
      ],
      { answered: Promise.resolve(), log: new MemoryLogger([]) },
    );
    await work.settled();
    expect(ran).toEqual(['first', 'later']);
  });
});
