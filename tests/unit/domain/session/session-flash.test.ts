import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../../domain/session/session.js';
import { T0, minutesAfter, nextRequest, startSession } from './support.js';

/** Runs `requests` in turn on one session, each ending with commit → JSON → resume. */
function simulate(requests: ((s: Session, request: number) => void)[]): Session {
  let session = startSession();
  requests.forEach((request, i) => {
    if (i > 0) session = nextRequest(session, minutesAfter(T0, i));
    request(session, i);
  });
  return session;
}

describe('flash aging across requests', () => {
  it.each<[string, ((s: Session) => void)[], unknown[]]>([
    ['flash: this and the next request', [(s) => s.flash('k', 'v'), () => {}, () => {}], ['v', 'v', undefined]],
    ['reflash in the second request: one more', [(s) => s.flash('k', 'v'), (s) => s.reflash(), () => {}, () => {}], ['v', 'v', 'v', undefined]],
    ['keep in the second request: one more', [(s) => s.flash('k', 'v'), (s) => s.keep(['k']), () => {}, () => {}], ['v', 'v', 'v', undefined]],
    ['keep of another key: no more', [(s) => s.flash('k', 'v'), (s) => s.keep(['other']), () => {}], ['v', 'v', undefined]],
    ['reflash twice: two more', [(s) => s.flash('k', 'v'), (s) => s.reflash(), (s) => s.reflash(), () => {}, () => {}], ['v', 'v', 'v', 'v', undefined]],
    ['reflash in the flashing request: no extra request', [(s) => { s.flash('k', 'v'); s.reflash(); }, () => {}, () => {}], ['v', 'v', undefined]],
    ['reflash in the third request: too late', [(s) => s.flash('k', 'v'), () => {}, (s) => s.reflash(), () => {}], ['v', 'v', undefined, undefined]],
    ['flashed again in the second request: the new value, one more', [(s) => s.flash('k', 'v'), (s) => s.flash('k', 'w'), () => {}, () => {}], ['v', 'w', 'w', undefined]],
    ['flashed again and reflashed: the new value wins', [(s) => s.flash('k', 'v'), (s) => { s.flash('k', 'w'); s.reflash(); }, () => {}], ['v', 'w', 'w']],
    ['flashNow: this request only', [(s) => s.flashNow('k', 'v'), () => {}], ['v', undefined]],
    ['flashNow then reflash: still this request only', [(s) => { s.flashNow('k', 'v'); s.reflash(); }, (s) => s.reflash(), () => {}], ['v', undefined, undefined]],
    ['flashNow then keep: still this request only', [(s) => { s.flashNow('k', 'v'); s.keep(['k']); }, () => {}], ['v', undefined]],
  ])('%s', (_name, requests, seen) => {
    const reads: unknown[] = [];
    simulate(requests.map((request) => (s) => {
      request(s);
      reads.push(s.get('k'));
    }));
    expect(reads).toEqual(seen);
  });

  it.each<[string, ((s: Session) => void)[], string[][]]>([
    ['flash and flashNow', [(s) => { s.flash('a', 1); s.flashNow('n', 2); }, () => {}, () => {}], [['a', 'n'], ['a'], []]],
    ['keep of one of two', [(s) => { s.flash('a', 1); s.flash('b', 2); }, (s) => s.keep(['b']), () => {}], [['a', 'b'], ['a', 'b'], ['b']]],
    ['a key in two layers listed once', [(s) => s.flash('a', 1), (s) => { s.flash('a', 2); s.flashNow('a', 3); }, () => {}], [['a'], ['a'], ['a']]],
    ['form helpers', [(s) => { s.flashInput({ q: 'x' }); s.flashErrors({ q: ['bad'] }); }, () => {}, () => {}], [['_old_input', '_errors'], ['_old_input', '_errors'], []]],
  ])('flashed() lists: %s', (_name, requests, listed) => {
    const lists: string[][] = [];
    simulate(requests.map((request) => (s) => {
      request(s);
      lists.push(s.flashed());
    }));
    expect(lists).toEqual(listed);
  });

  it('never stores a flashNow value', () => {
    const session = startSession();
    session.flashNow('n', 'now');
    session.flash('f', 'next');
    expect(session.commit(T0).flash).toEqual({ f: 'next' });
  });

  it('stores only the values meant for the next request', () => {
    const first = startSession();
    first.flash('a', 1);
    first.flash('b', 2);
    const second = nextRequest(first);
    second.keep(['a']);
    second.flash('c', 3);
    expect(second.commit(T0).flash).toEqual({ a: 1, c: 3 });
  });

  it.each([['_old_input'], ['_errors']])('flash and flashNow refuse the reserved key %s', (key) => {
    const session = startSession();
    expect(() => session.flash(key, 'x')).toThrow(TypeError);
    expect(() => session.flashNow(key, 'x')).toThrow(TypeError);
  });

  it('refuses a value that is not JSON', () => {
    expect(() => startSession().flash('k', new Date(0))).toThrow(TypeError);
    expect(() => startSession().flashNow('k', () => 1)).toThrow(TypeError);
  });
});

describe('form helpers', () => {
  const sentBack = (): Session => {
    const session = startSession();
    session.flashInput({
      email: 'ada@example.com',
      password: 'hunter22',
      password_confirmation: 'hunter22',
      current_password: 'old',
      _token: 'csrf',
      tags: ['a', 'b'],
      address: { city: 'London', lines: ['1 Main St'] },
      upload: new Map([['name', 'cv.pdf']]),
      skipped: undefined,
    });
    session.flashErrors({ email: ['is taken'], name: ['is required', 'is too short'] });
    session.flashErrors({ code: ['is wrong'] }, 'twoFactor');
    return nextRequest(session);
  };

  it.each<[string, unknown]>([
    ['email', 'ada@example.com'],
    ['tags', ['a', 'b']],
    ['address.city', 'London'],
    ['address.lines.0', '1 Main St'],
    ['address.lines.1', undefined],
    ['address.lines.x', undefined],
    ['tags.01', undefined],
    ['address.city.more', undefined],
    ['missing', undefined],
    ['password', undefined],
    ['password_confirmation', undefined],
    ['current_password', undefined],
    ['_token', undefined],
    ['upload', undefined],
    ['skipped', undefined],
  ])('old(%j) in the next request', (field, expected) => {
    expect(sentBack().old(field)).toEqual(expected);
  });

  it.each<[string, unknown, unknown]>([
    ['email', 'fallback', 'ada@example.com'],
    ['missing', 'fallback', 'fallback'],
    ['missing', null, null],
  ])('old(%j, %j) gives %j', (field, fallback, expected) => {
    expect(sentBack().old(field, fallback)).toEqual(expected);
  });

  it('prefers a field named with a dot over a path', () => {
    const session = startSession();
    session.flashInput({ 'a.b': 'flat', a: { b: 'nested' } });
    expect(session.old('a.b')).toBe('flat');
  });

  it.each<[string, Record<string, readonly string[]>]>([
    ['default', { email: ['is taken'], name: ['is required', 'is too short'] }],
    ['twoFactor', { code: ['is wrong'] }],
    ['unknown', {}],
  ])('errors(%j)', (bag, expected) => {
    expect(sentBack().errors(bag)).toEqual(expected);
  });

  it('errors() is the default bag; errorBags() lists the bags', () => {
    const session = sentBack();
    expect(session.errors()).toEqual(session.errors('default'));
    expect(session.errorBags()).toEqual(['default', 'twoFactor']);
    expect(session.hasOldInput()).toBe(true);
  });

  it.each<[string, ((s: Session) => void)[], boolean[]]>([
    ['nothing flashed', [() => {}, () => {}], [false, false]],
    ['input flashed: readable now and next, then gone', [(s) => s.flashInput({ a: '1' }), () => {}, () => {}], [true, true, false]],
    ['only passwords flashed', [(s) => s.flashInput({ password: 'x' }), () => {}], [false, false]],
    ['input kept with keep', [(s) => s.flashInput({ a: '1' }), (s) => s.keep(['_old_input']), () => {}, () => {}], [true, true, true, false]],
  ])('hasOldInput with %s', (_name, requests, seen) => {
    const answers: boolean[] = [];
    simulate(requests.map((request) => (s) => {
      request(s);
      answers.push(s.hasOldInput());
    }));
    expect(answers).toEqual(seen);
  });

  it('a guest without errors has an empty default bag and no bags', () => {
    const session = startSession();
    expect(session.errors()).toEqual({});
    expect(session.errorBags()).toEqual([]);
    expect(session.old('email')).toBeUndefined();
  });

  it('errors flashed in this request replace the previous request\'s, bag by bag', () => {
    const first = startSession();
    first.flashErrors({ a: ['old'] }, 'one');
    const second = nextRequest(first);
    second.flashErrors({ b: ['new'] }, 'two');
    expect(second.errorBags()).toEqual(['two']);
    second.flashErrors({ c: ['newer'] }, 'two');
    expect(nextRequest(second).errors('two')).toEqual({ c: ['newer'] });
  });

  it.each<[string, unknown, string]>([
    ['messages that are not a list', { email: 'is taken' }, 'default'],
    ['messages that are not strings', { email: [1] }, 'default'],
    ['a list instead of a record', [['is taken']], 'default'],
    ['an empty bag name', { email: ['is taken'] }, ''],
  ])('flashErrors refuses %s', (_name, errors, bag) => {
    expect(() => startSession().flashErrors(errors as Record<string, string[]>, bag)).toThrow(TypeError);
  });

  it('flashInput refuses something that is not a record of fields', () => {
    expect(() => startSession().flashInput(['a'] as unknown as Record<string, unknown>)).toThrow(TypeError);
  });

  it('hands out frozen errors', () => {
    const errors = sentBack().errors() as Record<string, string[]>;
    expect(() => errors['email']?.push('x')).toThrow(TypeError);
  });
});

/**
 * The model: each flashed key remembers its value and the last request it is readable in.
 * `flash` in request i makes it i + 1; `keep`/`reflash` in request i extend a readable key to
 * i + 1. flashNow values live in a map cleared at every request. A deliberately different
 * shape from the session's two flash layers.
 */
type Op =
  | { op: 'flash'; key: string; value: number }
  | { op: 'flashNow'; key: string; value: number }
  | { op: 'keep'; keys: string[] }
  | { op: 'reflash' };

const KEYS = ['a', 'b', 'c'];
const key = fc.constantFrom(...KEYS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('flash' as const), key, value: fc.integer() }),
  fc.record({ op: fc.constant('flashNow' as const), key, value: fc.integer() }),
  fc.record({ op: fc.constant('keep' as const), keys: fc.subarray(KEYS) }),
  fc.constant({ op: 'reflash' as const }),
);

describe('flash properties', () => {
  it('matches the model for random requests of flash, flashNow, keep and reflash', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 5 }), { minLength: 1, maxLength: 8 }), (requests) => {
        const model = new Map<string, { value: number; until: number }>();
        let session = startSession();
        requests.forEach((ops, i) => {
          if (i > 0) session = nextRequest(session, minutesAfter(T0, i));
          const now = new Map<string, number>();
          const check = (): void => {
            for (const k of KEYS) {
              const entry = model.get(k);
              const flashed = entry !== undefined && entry.until >= i ? entry.value : undefined;
              expect(session.get(k)).toBe(now.has(k) ? now.get(k) : flashed);
            }
            const listed = KEYS.filter((k) => now.has(k) || (model.get(k)?.until ?? -1) >= i);
            expect([...session.flashed()].sort()).toEqual(listed);
          };
          check();
          for (const step of ops) {
            switch (step.op) {
              case 'flash':
                session.flash(step.key, step.value);
                model.set(step.key, { value: step.value, until: i + 1 });
                now.delete(step.key);
                break;
              case 'flashNow':
                session.flashNow(step.key, step.value);
                now.set(step.key, step.value);
                break;
              case 'keep':
              case 'reflash': {
                if (step.op === 'keep') session.keep(step.keys);
                else session.reflash();
                for (const k of step.op === 'keep' ? step.keys : KEYS) {
                  const entry = model.get(k);
                  if (entry !== undefined && entry.until >= i) entry.until = Math.max(entry.until, i + 1);
                }
                break;
              }
            }
            check();
          }
        });
      }),
    );
  });

  it('a value flashed once is readable in exactly the request that flashed it and the next', () => {
    fc.assert(
      fc.property(fc.nat({ max: 4 }), fc.integer({ min: 2, max: 6 }), fc.jsonValue(), (flashedIn, extra, value) => {
        const total = flashedIn + extra;
        const seen: boolean[] = [];
        let session = startSession();
        for (let i = 0; i < total; i += 1) {
          if (i > 0) session = nextRequest(session, minutesAfter(T0, i));
          if (i === flashedIn) session.flash('k', value);
          seen.push(session.has('k'));
          if (session.has('k')) expect(session.get('k')).toEqual(JSON.parse(JSON.stringify(value)));
        }
        expect(seen).toEqual(Array.from({ length: total }, (_, i) => i === flashedIn || i === flashedIn + 1));
      }),
    );
  });
});
