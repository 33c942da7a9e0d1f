/**
 * V8's young generation kept at its start size, in every process that loads fw.
 *
 * V8 doubles the two semi-spaces of the young generation whenever enough objects survive a
 * scavenge, up to 2 × 16 MB on Node 20 and 22 and 2 × 64 MB on Node 24, and never gives that
 * memory back while the process lives. Loading fw's modules and booting the app is enough to
 * grow them to the maximum: 32 MB of the default app's idle 130 MB (docs/performance.md). The
 * size limit (`--max-semi-space-size`) is read only when node starts, which a framework cannot
 * choose for `npm start`, `fwx serve` or a host that imports fw; the growth factor is read by V8
 * each time it grows the space, so setting it to 1 here, before fw's modules run, keeps the young
 * generation at V8's start size (2 × 1 MB). The cost is more, smaller scavenges under load,
 * measured within the noise of the peers bench (docs/performance.md, docs/decisions.md).
 *
 * A factor set on import comes too late for the start itself: node loads and compiles every module
 * of an `import` before any of them runs, and loading fw's 1 700 modules grows the space to its
 * maximum. So once the app has booted, `shrinkWhenQuiet` asks for one scavenge every few seconds
 * until V8 gives the memory back: V8 shrinks the young generation at a scavenge only when the
 * process allocated little in the last seconds, which is why this waits for a quiet moment
 * rather than collecting at the end of boot. After that the factor keeps it small.
 *
 * `YOUNG_GENERATION=grow` (the environment, or `.env` from boot on) gives V8 its own growth back
 * for an instance with memory to spare; any semi-space flag on node's command line or in
 * NODE_OPTIONS is the operator's choice and is left alone.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** `small`: the start size (fw's default); `grow`: V8's own doubling. */
export type YoungGeneration = 'small' | 'grow';

const SEMI_SPACE_FLAG = /--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)\b/u;

/** V8's own setting until fw changes it. */
let current: YoungGeneration = 'grow';

/** Whether the command that started node sized the young generation itself. */
function sizedByNodeCommand(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((argument) => SEMI_SPACE_FLAG.test(argument));
}

/** Applies the choice from now on (V8 reads the factor at its next growth); answers the one in force. */
export function sizeYoungGeneration(choice: YoungGeneration): YoungGeneration {
  if (choice === current || sizedByNodeCommand()) return current;
  setFlagsFromString(`--semi-space-growth-factor=${choice === 'small' ? 1 : 2}`);
  current = choice;
  return current;
}

/** Above this the young generation has grown (V8 starts it at 2 × 1 MB on every supported line). */
const GROWN_BYTES = 4 * 1024 * 1024;
/** How often to look. V8 judges "quiet" by the allocations between its last collections, so short steps see a quiet moment sooner (every 5 s took 15–25 s under tsx). */
const QUIET_CHECK_MS = 2_000;

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
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Gives back the young generation that start-up grew, at the first quiet moment (see above);
 * answers a function that stops looking. Nothing to do under `grow` or a node flag.
 */
export function shrinkWhenQuiet(): () => void {
  if (current !== 'small' || youngGenerationBytes() <= GROWN_BYTES) return () => undefined;
  const collect = collector();
  const timer = setInterval(() => {
    if (current !== 'small' || youngGenerationBytes() <= GROWN_BYTES) {
      clearInterval(timer);
      return;
    }
    // A scavenge costs about a millisecond; V8 shrinks the space only if the process was quiet.
    collect({ type: 'minor' });
  }, QUIET_CHECK_MS);
  // The process may end whenever it likes: this is housekeeping.
  timer.unref();
  return () => clearInterval(timer);
}

/** The setting as the process environment gives it, before any `.env` is read. */
export function youngGenerationFromEnvironment(value: string | undefined): YoungGeneration {
  return value?.trim() === 'grow' ? 'grow' : 'small';
}

// On import: fw's other modules run after this one (composition/app.ts imports it first).
sizeYoungGeneration(youngGenerationFromEnvironment(process.env['YOUNG_GENERATION']));
