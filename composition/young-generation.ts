/**
 * V8's young generation given back once fw is quiet, and held to 2 × 4 MB under load.
 *
 * V8 doubles the two semi-spaces of the young generation whenever enough objects survive a
 * scavenge, up to 2 × 16 MB on Node 20 and 22 and 2 × 64 MB on Node 24, and keeps them. Loading
 * fw's 1 700 modules is enough to grow them to the maximum before any of fw's code runs (node
 * loads and compiles every module of an `import` first): 32 MB of the default app's idle 130 MB
 * (docs/performance.md). The size limit (`--max-semi-space-size`) is read only when node starts,
 * which a framework cannot choose for `npm start`, `fwx serve`, an app's own entry or a host
 * that imports fw. Two things V8 does read at run time are used instead:
 *
 * - V8 shrinks the young generation at a scavenge when the process allocated little lately. Once
 *   the app has booted, fw asks for a scavenge every 2 s while the space is larger than V8's
 *   start size; at the first quiet moment V8 gives the memory back (under load it does not, and
 *   one more scavenge among hundreds a second costs nothing measurable). That is done once, for
 *   start-up's growth; afterwards V8 sizes the space itself, between its start size and the cap.
 * - The growth factor is read each time V8 grows the space. fw lets V8 double it while it is below
 *   2 × 4 MB and sets the factor to 1 once it reaches that: semi-spaces of 1 MB cost 10–30 % more
 *   CPU per page request in the peers bench, 4 MB ones were within its noise of V8's 16. V8 also
 *   shrinks the space by itself when a burst follows a pause, so the factor goes back to 2
 *   whenever the space is below the cap (checked twice a second).
 *
 * `YOUNG_GENERATION=grow` leaves V8 alone; so does any semi-space flag on node's command line or
 * in NODE_OPTIONS (the operator's choice).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { HeapSpaceInfo } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** `small`: given back when quiet, at most 2 × 4 MB (fw's default); `grow`: V8's own sizing. */
export type YoungGeneration = 'small' | 'grow';

const SEMI_SPACE_FLAG = /--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)\b/u;
const MB = 1024 * 1024;
/** V8 starts the young generation at 2 × 1 MB on every supported line; above this it has grown. */
const START_BYTES = 2 * MB;
/** The most fw lets it grow to under load: two 4 MB semi-spaces. */
const CAP_BYTES = 8 * MB;
/** How often to look. V8 judges "quiet" by the allocations between its last collections, so short steps see a quiet moment sooner (every 5 s took 15–25 s under tsx). */
const QUIET_CHECK_MS = 2_000;
/** How soon a burst after V8 shrank the space may grow it again (reading the size is all it costs). */
const GROWTH_CHECK_MS = 500;

/** Whether the command that started node sized the young generation itself. */
function sizedByNodeCommand(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((argument) => SEMI_SPACE_FLAG.test(argument));
}

function startedWithExposeGc(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((argument) => /--expose[-_]gc\b/u.test(argument));
}

function newSpace(): HeapSpaceInfo | undefined {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
}

/** The young generation's committed bytes: both semi-spaces, or only one while V8 has the other uncommitted. */
function youngGenerationBytes(): number {
  return newSpace()?.space_size ?? 0;
}

/**
 * Whether a semi-space has reached the cap. Read from one semi-space's capacity (used plus
 * available, a little under the power of two V8 sizes it to), not from the committed bytes:
 * V8 uncommits the idle semi-space at times (after a quiet spell), and a committed size of
 * 4 MB then stood for two 4 MB semi-spaces, so the factor went to 2 at the cap and V8 doubled
 * past it (14 MB seen).
 */
function atCap(): boolean {
  const space = newSpace();
  return space !== undefined && space.space_used_size + space.space_available_size > (CAP_BYTES / 2) * 0.75;
}

type Collect = (options: { type: 'minor' }) => void;

/**
 * V8's `gc` function: the process's own under `--expose-gc`, or one from a fresh context made
 * while the flag is on for a moment (the flag only decides whether new contexts get it).
 */
function collector(): Collect {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Collect;
  } finally {
    // Left on when node was started with it (a test runner's own context may lack `gc` even so).
    if (!startedWithExposeGc()) setFlagsFromString('--no-expose-gc');
  }
}

/** The process's growth factor as fw last set it (V8's default is 2). */
let factorSet: 1 | 2 = 2;

function growthFactor(factor: 1 | 2): void {
  if (factor === factorSet) return;
  factorSet = factor;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** Apps in this process looking after it: the flags are the process's, reset when the last stops. */
let keepers = 0;

/**
 * Starts looking after the young generation (see above) for a booted app; answers a function
 * that stops, leaving V8's own growth in force. Nothing to do under `grow` or a node flag.
 */
export function keepYoungGenerationSmall(choice: YoungGeneration): () => void {
  if (choice !== 'small' || sizedByNodeCommand()) return () => undefined;
  keepers++;
  const collect = collector();
  // The cap: V8 doubles the space at a scavenge while the factor is 2, and this observer hears
  // each scavenge right after it, so it sets the factor to 1 as the space reaches the cap. It
  // listens only while the space grows: an observer of every collection costs more than the
  // collections (a third of `/health`'s CPU in the peers bench).
  let growing = false;
  const cap = new PerformanceObserver(() => {
    if (!atCap()) return;
    growthFactor(1);
    cap.disconnect();
    growing = false;
  });
  // V8 also shrinks the space by itself (at the first scavenge of a burst after a pause, judged
  // by the quiet before it); with the factor left at 1 it stayed at 1 MB semi-spaces for the
  // whole burst, four times the scavenges. So below the cap the factor is 2 again.
  const allowGrowth = (): void => {
    if (growing || atCap()) return;
    growthFactor(2);
    cap.observe({ entryTypes: ['gc'] });
    growing = true;
  };
  let watch: ReturnType<typeof setInterval> | undefined;
  const timer = setInterval(() => {
    if (youngGenerationBytes() > START_BYTES) {
      // A scavenge costs about a millisecond; V8 shrinks the space only if the process was quiet.
      collect({ type: 'minor' });
      if (youngGenerationBytes() > START_BYTES) return;
    }
    // Given back once: start-up's growth is what this undoes. From here V8 sizes the space
    // between its start size and the cap by itself.
    clearInterval(timer);
    allowGrowth();
    watch = setInterval(allowGrowth, GROWTH_CHECK_MS);
    watch.unref();
  }, QUIET_CHECK_MS);
  // The process may end whenever it likes: this is housekeeping.
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    clearInterval(watch);
    cap.disconnect();
    keepers--;
    if (keepers === 0) growthFactor(2);
  };
}
