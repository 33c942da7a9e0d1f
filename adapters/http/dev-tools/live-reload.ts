import { randomUUID } from 'node:crypto';
import { basename, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { createRequire } from 'node:module';
import type chokidarModule from 'chokidar';
import type { FSWatcher } from 'chokidar';
import type { Logger } from '../../../ports/logger.js';

/** chokidar is loaded when something is watched: a server without dev tools never carries it (~8 MB). */
const loadChokidar = (): typeof chokidarModule => createRequire(import.meta.url)('chokidar') as typeof chokidarModule;

/** The live-reload stream's address: a server-sent event stream, only while debugging locally. */
export const LIVE_PATH = '/_fw/live';

export interface LiveReloadOptions {
  /** Folders whose changes reload the pages: views, templates, public files, stylesheets. */
  folders: readonly string[];
  logger: Logger;
  /** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
  heartbeatMs?: number;
  /** Changes closer together than this make one reload (an editor writes a file in steps). */
  settleMs?: number;
}

/** The headers of the stream: never cached, never buffered by a proxy (`X-Accel-Buffering`). */
export const LIVE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

/**
 * Live reload for local development. The folders are watched (chokidar: Node 20's recursive
 * `fs.watch` on Linux loses the changes of files whose sibling folder was removed); each
 * browser tab holds one stream (`connect`), and a change sends `reload` to all of them.
 *
 * Every stream starts with `hello` naming this server's boot: a page rendered by another
 * boot (the server restarted after a TypeScript change, `fwx serve --watch`) reloads as soon
 * as its stream reconnects, since it may show what the old code rendered.
 */
export class LiveReload {
  /** Names this process; pages carry it (`fw_live()`), streams announce it. */
  readonly boot = randomUUID();
  private readonly clients = new Set<PassThrough>();
  private watcher: FSWatcher | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private changed = new Set<string>();
  private ready: Promise<void> | null = null;

  constructor(private readonly options: LiveReloadOptions) {}

  /** Starts watching (once); resolves when the watcher has read the folders. */
  start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve) => {
      const watcher = loadChokidar().watch([...this.options.folders], {
        ignoreInitial: true,
        // Editors' swap and backup files, dot files and folders, installed packages.
        ignored: (path: string) => {
          const name = basename(path);
          return name.startsWith('.') || name === 'node_modules' || /(?:~|\.sw[a-p]|\.tmp)$/u.test(name);
        },
      });
      watcher.on('all', (_event, path) => this.changedFile(path));
      watcher.on('error', (error) => this.options.logger.warn('live reload: a watched folder could not be read', { error: String(error) }));
      watcher.on('ready', () => resolve());
      this.watcher = watcher;
      this.heartbeat = setInterval(() => this.send(': heartbeat\n\n'), this.options.heartbeatMs ?? 15_000);
      this.heartbeat.unref();
    });
    return this.ready;
  }

  /** A new stream for one page: `hello`, then `reload` events and heartbeats until `close`. */
  connect(): PassThrough {
    void this.start();
    const stream = new PassThrough();
    this.clients.add(stream);
    stream.on('close', () => this.clients.delete(stream));
    // `retry`: how soon the browser reconnects after the server went away (a restart).
    stream.write(`retry: 500\nevent: hello\ndata: ${JSON.stringify({ boot: this.boot })}\n\n`);
    return stream;
  }

  /** How many pages listen now. */
  get listeners(): number {
    return this.clients.size;
  }

  /** Tells every page to reload now (a change, or a test). */
  reload(paths: readonly string[] = []): void {
    this.send(`event: reload\ndata: ${JSON.stringify({ paths })}\n\n`);
  }

  /**
   * Ends every stream, so a server stopping does not wait for pages that never hang up. The
   * browsers reconnect (to the next server, after a restart).
   */
  endStreams(): void {
    for (const stream of this.clients) stream.end();
    this.clients.clear();
  }

  /** Ends the streams and stops watching. */
  async close(): Promise<void> {
    this.endStreams();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    if (this.pending !== null) clearTimeout(this.pending);
    this.heartbeat = null;
    this.pending = null;
    const watcher = this.watcher;
    this.watcher = null;
    this.ready = null;
    await watcher?.close();
  }

  private changedFile(path: string): void {
    const folder = this.options.folders.find((root) => !relative(root, path).startsWith('..'));
    this.changed.add(folder === undefined ? path : relative(folder, path));
    if (this.pending !== null) clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = null;
      const paths = [...this.changed];
      this.changed = new Set();
      this.options.logger.debug('live reload', { paths });
      this.reload(paths);
    }, this.options.settleMs ?? 60);
  }

  private send(text: string): void {
    for (const stream of this.clients) if (!stream.writableEnded) stream.write(text);
  }
}
