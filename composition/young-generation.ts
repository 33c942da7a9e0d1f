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
 *   one more scavenge among hundreds a second costs nothing measurable).
 * - The growth factor is read each time V8 grows the space. After a shrink fw lets V8 double it
 *   again, and sets the factor to 1 once it reaches 2 × 4 MB: semi-spaces of 1 MB cost 10–30 % more
 *   CPU per page request in the peers bench, 4 MB ones were within its noise of V8's 16.
 *
 * `YOUNG_GENERATION=grow` leaves V8 alone; so does any semi-space flag on node's command line or
 * in NODE_OPTIONS (the operator's choice).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
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

/** Whether the command that started node sized the young generation itself. */
function sizedByNodeCommand(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((argument) => SEMI_SPACE_FLAG.test(argument));
}

function startedWithExposeGc(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((argument) => /--expose[-_]gc\b/u.test(argument));
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
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

function growthFactor(factor: 1 | 2): void {
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/**
 * Starts looking after the young generation (see above) for a booted app; answers a function
 * that stops, leaving V8's own growth in force. Nothing to do under `grow` or a node flag.
 */
/** Apps in this process looking after it: the flags are the process's, reset when the last stops. */
let keepers = 0;

export function keepYoungGenerationSmall(choice: YoungGeneration): () => void {
  if (choice !== 'small' || sizedByNodeCommand()) return () => undefined;
  keepers++;
  const collect = collector();
  // Held to the cap while growing again after a shrink: V8 grows only at scavenges, and the
  // observer hears each one right after it.
  const cap = new PerformanceObserver(() => {
    if (youngGenerationBytes() < CAP_BYTES) return;
    growthFactor(1);
    cap.disconnect();
  });
  const timer = setInterval(() => {
    if (youngGenerationBytes() <= START_BYTES) return;
    // A scavenge costs about a millisecond; V8 shrinks the space only if the process was quiet.
    collect({ type: 'minor' });
    if (youngGenerationBytes() > START_BYTES) return;
    growthFactor(2);
    cap.observe({ entryTypes: ['gc'] });
  }, QUIET_CHECK_MS);
  // The process may end whenever it likes: this is housekeeping.
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    cap.disconnect();
    keepers--;
    if (keepers === 0) growthFactor(2);
  };
}
