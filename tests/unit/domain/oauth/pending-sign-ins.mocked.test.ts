import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sameSecret } from '../../../../domain/security/constant-time.js';
import type * as ConstantTime from '../../../../domain/security/constant-time.js';
import { MAX_PENDING_SIGN_INS } from '../../../../domain/oauth/limits.js';
import { pendingSignInToJson } from '../../../../domain/oauth/pending-sign-in.js';
import type { PendingSignIn } from '../../../../domain/oauth/pending-sign-in.js';
import { addPendingSignIn, readPendingSignIns, takePendingSignIn } from '../../../../domain/oauth/pending-sign-ins.js';
import { aPendingSignIn, minutesAfter, T0 } from '../../../support/builders.js';

// The real comparison, watched: the tests check that every entry is compared.
vi.mock('../../../../domain/security/constant-time.js', async (importOriginal) => {
  const real = await importOriginal<typeof ConstantTime>();
  return { sameSecret: vi.fn(real.sameSecret) };
});

/** What the session holds after a redirect, as a driver would store and read it back. */
function storeAfter(list: unknown, p: PendingSignIn, now: Date = p.startedAt): unknown {
  return JSON.parse(JSON.stringify(addPendingSignIn(list, p, now)));
}

const tab1 = aPendingSignIn({ seed: 1 });
const tab2 = aPendingSignIn({ seed: 2, provider: 'provider_b', now: minutesAfter(T0, 1) });
const oneStored = storeAfter(undefined, tab1);

beforeEach(() => {
  vi.mocked(sameSecret).mockClear();
});

describe("the spec's 'Value of state' table", () => {
  it('none → oauth.redirect, provider enabled → stored in session', () => {
    expect(readPendingSignIns(undefined, T0)).toEqual([]);
    expect(oneStored).toEqual([pendingSignInToJson(tab1)]);
    expect(readPendingSignIns(oneStored, T0)).toEqual([tab1]);
  });

  it('stored → callback from the same browser, within ten minutes, same provider, value equal → accepted', () => {
    const taken = takePendingSignIn(oneStored, { provider: 'provider_a', state: tab1.state }, minutesAfter(T0, 9));
    expect(taken.check).toEqual({ kind: 'accepted', pending: tab1 });
  });

  it('stored → callback one millisecond before ten minutes → accepted', () => {
    const now = new Date(T0.getTime() + 600_000 - 1);
    expect(takePendingSignIn(oneStored, { provider: 'provider_a', state: tab1.state }, now).check.kind).toBe('accepted');
  });

  it.each<[string, unknown, { provider: string; state: unknown }, Date, string]>([
    ['other browser (its session has no pending sign-in)', undefined, { provider: 'provider_a', state: tab1.state }, T0, 'unknown-state'],
    ["other browser (its session has its own pending sign-in)", storeAfter(undefined, aPendingSignIn({ seed: 50 })), { provider: 'provider_a', state: tab1.state }, T0, 'unknown-state'],
    ['older than ten minutes (exactly ten)', oneStored, { provider: 'provider_a', state: tab1.state }, minutesAfter(T0, 10), 'expired'],
    ['older than ten minutes (a day)', oneStored, { provider: 'provider_a', state: tab1.state }, minutesAfter(T0, 1440), 'expired'],
    ['other provider', oneStored, { provider: 'provider_b', state: tab1.state }, T0, 'other-provider'],
    ['value differing in its last character', oneStored, { provider: 'provider_a', state: `${tab1.state.slice(0, 42)}${tab1.state.endsWith('A') ? 'B' : 'A'}` }, T0, 'unknown-state'],
    ['no state in the callback', oneStored, { provider: 'provider_a', state: undefined }, T0, 'missing-state'],
    ['an empty state', oneStored, { provider: 'provider_a', state: '' }, T0, 'missing-state'],
    ['a repeated state parameter', oneStored, { provider: 'provider_a', state: [tab1.state, tab1.state] }, T0, 'missing-state'],
    ['a state longer than any this app makes', oneStored, { provider: 'provider_a', state: `${tab1.state}x` }, T0, 'missing-state'],
  ])('stored → callback from %s → refused', (_what, stored, callback, now, reason) => {
    expect(takePendingSignIn(stored, callback, now).check).toEqual({ kind: 'refused', reason });
  });

  it.each<[string, { provider: string }, Date]>([
    ['accepted', { provider: 'provider_a' }, T0],
    ['refused for another provider', { provider: 'provider_b' }, T0],
    ['refused as expired', { provider: 'provider_a' }, minutesAfter(T0, 11)],
  ])('stored → first callback, any outcome (%s) → removed; a second callback with it is refused', (_what, { provider }, now) => {
    const first = takePendingSignIn(oneStored, { provider, state: tab1.state }, now);
    expect(first.remaining).toEqual([]);
    const second = takePendingSignIn(first.remaining, { provider: 'provider_a', state: tab1.state }, T0);
    expect(second.check).toEqual({ kind: 'refused', reason: 'unknown-state' });
  });

  it('compares the returned state with every entry in constant time, with no early exit', () => {
    let stored: unknown = undefined;
    for (let seed = 1; seed <= MAX_PENDING_SIGN_INS; seed += 1) stored = storeAfter(stored, aPendingSignIn({ seed }));
    // The first entry matches; the others are compared all the same.
    takePendingSignIn(stored, { provider: 'provider_a', state: aPendingSignIn({ seed: 1 }).state }, T0);
    expect(vi.mocked(sameSecret)).toHaveBeenCalledTimes(MAX_PENDING_SIGN_INS);
  });
});

describe('several pending sign-ins in one session', () => {
  const both = storeAfter(oneStored, tab2);

  it('a second tab adds its sign-in beside the first, which still completes', () => {
    expect(readPendingSignIns(both, tab2.startedAt)).toEqual([tab1, tab2]);
    const first = takePendingSignIn(both, { provider: 'provider_a', state: tab1.state }, tab2.startedAt);
    expect(first.check).toEqual({ kind: 'accepted', pending: tab1 });
    expect(first.remaining).toEqual([pendingSignInToJson(tab2)]);
    const second = takePendingSignIn(first.remaining, { provider: 'provider_b', state: tab2.state }, tab2.startedAt);
    expect(second.check).toEqual({ kind: 'accepted', pending: tab2 });
    expect(second.remaining).toEqual([]);
  });

  it("a callback with a state of no entry removes nothing: a forged link cannot cancel another tab's sign-in", () => {
    const taken = takePendingSignIn(both, { provider: 'provider_a', state: aPendingSignIn({ seed: 99 }).state }, tab2.startedAt);
    expect(taken.check).toEqual({ kind: 'refused', reason: 'unknown-state' });
    expect(taken.remaining).toEqual(both);
  });

  it(`keeps at most ${MAX_PENDING_SIGN_INS}, dropping the oldest first`, () => {
    let stored: unknown = undefined;
    const started = Array.from({ length: MAX_PENDING_SIGN_INS + 2 }, (_, i) => aPendingSignIn({ seed: 10 + i, now: T0 }));
    for (const p of started) stored = storeAfter(stored, p);
    expect(readPendingSignIns(stored, T0)).toEqual(started.slice(2));
    expect(takePendingSignIn(stored, { provider: 'provider_a', state: started[0]?.state }, T0).check).toEqual({ kind: 'refused', reason: 'unknown-state' });
    expect(takePendingSignIn(stored, { provider: 'provider_a', state: started[2]?.state }, T0).check.kind).toBe('accepted');
  });

  it('drops expired entries when a sign-in starts or a callback arrives', () => {
    const later = aPendingSignIn({ seed: 3, now: minutesAfter(T0, 12) });
    expect(storeAfter(oneStored, later)).toEqual([pendingSignInToJson(later)]);
    const stale = storeAfter(oneStored, aPendingSignIn({ seed: 4, now: minutesAfter(T0, 5) }));
    expect(takePendingSignIn(stale, { provider: 'provider_a', state: 'x' }, minutesAfter(T0, 11)).remaining).toHaveLength(1);
  });

  it.each<[string, unknown]>([
    ['not a list', { 0: pendingSignInToJson(tab1) }],
    ['a string', 'oauth'],
    ['a list with junk beside a good entry', [null, 5, 'x', { ...pendingSignInToJson(tab2), state: 'short' }, pendingSignInToJson(tab1)]],
  ])('reads a damaged value (%s) as its good entries only', (_what, stored) => {
    const good = Array.isArray(stored) ? [tab1] : [];
    expect(readPendingSignIns(stored, T0)).toEqual(good);
    expect(addPendingSignIn(stored, tab2, tab2.startedAt)).toEqual([...good, tab2].map(pendingSignInToJson));
  });
});

describe('the pending sign-ins under random use (fast-check)', () => {
  type Step = { kind: 'start'; provider: 'provider_a' | 'provider_b' } | { kind: 'callback'; pick: number; provider: 'provider_a' | 'provider_b' } | { kind: 'wait'; minutes: number };
  const provider = fc.constantFrom('provider_a' as const, 'provider_b' as const);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('start' as const), provider }),
    fc.record({ kind: fc.constant('callback' as const), pick: fc.nat(), provider }),
    fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 0, max: 12 }) }),
  );

  it('behaves like a plain model: a bounded queue, oldest dropped first, each state taken once', () => {
    const alive = (p: PendingSignIn, now: Date): boolean => now.getTime() - p.startedAt.getTime() < 600_000;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let stored: unknown = undefined;
        let model: PendingSignIn[] = [];
        let now = T0;
        let seed = 0;
        const started: PendingSignIn[] = [];
        const accepted = new Set<string>();
        for (const s of steps) {
          if (s.kind === 'wait') now = minutesAfter(now, s.minutes);
          else if (s.kind === 'start') {
            seed += 1;
            const p = aPendingSignIn({ seed, provider: s.provider, now });
            started.push(p);
            stored = storeAfter(stored, p, now);
            model = [...model.filter((m) => alive(m, now)), p].slice(-MAX_PENDING_SIGN_INS);
          } else {
            // Mostly a state this session was given, sometimes one it never saw.
            const target = started[s.pick % (started.length + 1)] ?? aPendingSignIn({ seed: 10_000 + s.pick });
            const taken = takePendingSignIn(stored, { provider: s.provider, state: target.state }, now);
            stored = JSON.parse(JSON.stringify(taken.remaining));
            const held = model.find((m) => m.state === target.state);
            const expected = held === undefined ? 'unknown-state' : held.provider !== s.provider ? 'other-provider' : !alive(held, now) ? 'expired' : 'accepted';
            expect(taken.check.kind === 'accepted' ? 'accepted' : taken.check.reason).toBe(expected);
            model = model.filter((m) => m.state !== target.state && alive(m, now));
            if (taken.check.kind === 'accepted') {
              expect(accepted.has(target.state)).toBe(false);
              accepted.add(target.state);
              expect(taken.check.pending).toEqual(target);
            }
          }
          const list = readPendingSignIns(stored, now);
          expect(list.length).toBeLessThanOrEqual(MAX_PENDING_SIGN_INS);
          expect(list).toEqual(model.filter((m) => alive(m, now)));
        }
      }),
    );
  });

  it('never throws, whatever the session holds or the callback carries', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.string(), (stored, state, providerName) => {
        const taken = takePendingSignIn(stored, { provider: providerName, state }, T0);
        expect(['accepted', 'refused']).toContain(taken.check.kind);
        expect(Array.isArray(taken.remaining)).toBe(true);
      }),
    );
  });
});
