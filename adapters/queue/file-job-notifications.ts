import { closeSync, constants, openSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { open } from 'node:fs/promises';
import type { JobWatch } from '../../ports/job-queue.js';
import type { JobNotifications } from './job-notifications.js';

/**
 * How the wake file is opened: created if missing (owner-only), never through a symbolic link,
 * so a link planted in a shared folder cannot make a dispatch write to another file.
 */
const OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
const MODE = 0o600;

/** Marks the file changed without writing to it: its times move, and watchers hear it. */
async function touch(path: string): Promise<void> {
  const handle = await open(path, OPEN_FLAGS, MODE);
  try {
    const now = new Date();
    await handle.utimes(now, now);
  } finally {
    await handle.close();
  }
}

/** The wait before watching the wake file again after it was removed or its watch failed. */
const REWATCH_MS = 1000;

/**
 * SQLite's stand-in for NOTIFY, so a dispatch in one process (`serve`) wakes idle workers in
 * another (`queue:work`) on the same machine: after a commit that queued a job, the dispatching
 * process touches an empty file beside the database (its times change, its content never); workers watch it (`fs.watch`: inotify on
 * Linux, FSEvents on macOS) and claim. Cheap: no statement while idle, no wake-up for the app's
 * other writes (sessions, cache). A hint only, as LISTEN is: a file system where watching does
 * not work (some network and container mounts) leaves the workers' poll, which still finds
 * every job. Kernels fold events of quick writes together, so a hint may stand for several
 * jobs: it wakes every idle loop.
 */
export class FileJobNotifications implements JobNotifications {
  /** A touch is on its way, and another was asked for meanwhile. */
  private writing = false;
  private again = false;

  constructor(
    private readonly path: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  /** Called after the commit of a job available now; never waits for the file. */
  announce(): void {
    if (this.writing) {
      this.again = true;
      return;
    }
    this.writing = true;
    touch(this.path)
      .catch((error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.writing = false;
        if (this.again) {
          this.again = false;
          this.announce();
        }
      });
  }

  listen(listener: (many?: boolean) => void): Promise<JobWatch> {
    let closed = false;
    let watcher: FSWatcher | null = null;
    let retry: NodeJS.Timeout | undefined;
    let queued = false;
    const hint = () => {
      // One touch may give the watch several events: one hint per turn of the loop.
      if (queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        if (!closed) listener(true);
      });
    };
    const start = () => {
      // The file must exist to be watched; an existing one is left as it is.
      closeSync(openSync(this.path, OPEN_FLAGS, MODE));
      const next = watch(this.path, { persistent: false }, (event) => {
        hint();
        // Removed or replaced: the watch followed the old file; watch the path again.
        if (event === 'rename') restart();
      });
      next.on('error', (error) => {
        this.onError(error);
        restart();
      });
      watcher = next;
    };
    const restart = () => {
      watcher?.close();
      watcher = null;
      if (closed || retry !== undefined) return;
      retry = setTimeout(() => {
        retry = undefined;
        if (closed) return;
        try {
          start();
          // A dispatch may have come while nothing watched.
          hint();
        } catch (error) {
          this.onError(error instanceof Error ? error : new Error(String(error)));
          restart();
        }
      }, REWATCH_MS);
      retry.unref();
    };
    try {
      start();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return Promise.resolve({
      close: () => {
        closed = true;
        clearTimeout(retry);
        watcher?.close();
        watcher = null;
        return Promise.resolve();
      },
    });
  }
}
