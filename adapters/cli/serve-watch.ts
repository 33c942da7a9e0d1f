import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { basename, relative } from 'node:path';
import { createRequire } from 'node:module';
import type chokidarModule from 'chokidar';

/** chokidar is loaded when something is watched: a server without dev tools never carries it (~8 MB). */
const loadChokidar = (): typeof chokidarModule => createRequire(import.meta.url)('chokidar') as typeof chokidarModule;

export interface ServeWatchOptions {
  /** The program and arguments that serve once: node, its flags (the TypeScript loader), the entry and `serve`. */
  command: string;
  args: readonly string[];
  cwd: string;
  /** The app's folder: its TypeScript (and `.env`) changes restart the server. */
  root: string;
  announce: (line: string) => void;
  /** Resolves when the supervisor should stop (a signal). */
  stopped: Promise<void>;
}

/** Files whose change means new server code or settings. */
const RESTARTS = /\.(?:ts|mts|cts|js|mjs|cjs|json)$|^\.env$/u;
/**
 * Folders that never hold server code: live reload handles views, stylesheets and public
 * files without a restart; the rest is data, build output or installed packages.
 */
const SKIPPED = new Set(['node_modules', 'storage', 'dist', 'public', 'resources', 'templates', 'tests', 'docs', 'coverage']);

/**
 * `fwx serve --watch`: runs the server in a child process and starts a new one when the app's
 * TypeScript changes, the way `tsx watch` does for `npm run dev`. The new process compiles the
 * changed sources as it loads them (tsx), so there is no build step; pages open in a browser
 * reconnect to `/_fw/live` and reload, since the new server announces another boot.
 *
 * The child stops with SIGTERM (it finishes its requests and closes the database), and stops by
 * itself when this process dies (its IPC channel closes), so no server is left orphaned.
 */
export async function superviseServer(options: ServeWatchOptions): Promise<void> {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stopping = false;

  const start = () => {
    const started = spawn(options.command, [...options.args], { cwd: options.cwd, stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: process.env });
    child = started;
    exited = new Promise((resolve) => {
      started.once('exit', (code, signal) => {
        if (child === started) child = null;
        if (!stopping && code !== 0 && signal === null) options.announce(`The server stopped (exit code ${code ?? 'none'}); waiting for a change to start it again.`);
        resolve();
      });
    });
  };
  const stopChild = async () => {
    const running: ChildProcess | null = child;
    if (running === null) return;
    running.kill('SIGTERM');
    const force = setTimeout(() => running.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(force);
  };

  let restarting: Promise<void> = Promise.resolve();
  let pending: NodeJS.Timeout | null = null;
  const changed = new Set<string>();
  const watcher = loadChokidar().watch(options.root, {
    ignoreInitial: true,
    ignored: (path: string) => {
      const name = basename(path);
      if (name === '.env') return false;
      if (name.startsWith('.')) return true;
      // Only the app's own top-level folders are skipped by name: `src/views/` is still code.
      return SKIPPED.has(name) && relative(options.root, path) === name;
    },
  });
  watcher.on('all', (_event, path) => {
    if (!RESTARTS.test(basename(path)) || stopping) return;
    changed.add(relative(options.root, path));
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = null;
      const files = [...changed].join(', ');
      changed.clear();
      restarting = restarting.then(async () => {
        if (stopping) return;
        options.announce(`Changed: ${files}. Restarting…`);
        await stopChild();
        if (!stopping) start();
      });
    }, 100);
  });
  await new Promise<void>((resolve) => watcher.on('ready', () => resolve()));

  start();
  await options.stopped;
  stopping = true;
  if (pending !== null) clearTimeout(pending);
  await restarting;
  await stopChild();
  await watcher.close();
}
