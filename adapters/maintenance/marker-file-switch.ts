import { statSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MaintenanceSwitch } from '../../ports/maintenance-switch.js';

/**
 * How long one look at the marker answers for. A `stat` per request was ~4 % of a page's CPU
 * (docs/performance.md); looking at most twice a second, another process's `fwx down` or `up`
 * takes effect within half a second, and one in this process at once (see `looks`).
 */
export const MARKER_RECHECK_MS = 500;

interface Look {
  /** `performance.now()` when the marker was last looked at. */
  at: number;
  /** The marker's text, null while up. */
  text: string | null;
  /** What the file was when its text was read, so a changed marker is read again. */
  mtimeMs: number;
  size: number;
}

/**
 * The last look at each marker file, shared by every switch on the same path in this process:
 * `down`/`up` through one of them (`fwx down` run from the app, a test's second instance) is
 * seen by the others at once, not after `MARKER_RECHECK_MS`.
 */
const looks = new Map<string, Look>();

/**
 * The spec's marker file, `storage/framework/down`: its presence means down. Looked at (one
 * `stat`) at most once per `MARKER_RECHECK_MS`; the text is read again only when the file
 * changes. Written to a temporary name and renamed, so no process ever reads half a marker.
 */
export class MarkerFileSwitch implements MaintenanceSwitch {
  constructor(
    private readonly path: string,
    private readonly now: () => number = () => performance.now(),
  ) {}

  read(): string | null {
    const now = this.now();
    const last = looks.get(this.path);
    if (last !== undefined && now - last.at < MARKER_RECHECK_MS && now >= last.at) return last.text;
    return this.look(now, last);
  }

  private look(now: number, last: Look | undefined): string | null {
    const stats = statSync(this.path, { throwIfNoEntry: false });
    if (stats === undefined) {
      looks.set(this.path, { at: now, text: null, mtimeMs: 0, size: 0 });
      return null;
    }
    if (last !== undefined && last.text !== null && last.mtimeMs === stats.mtimeMs && last.size === stats.size) {
      last.at = now;
      return last.text;
    }
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      // Removed between stat and read: the site just came up.
      looks.set(this.path, { at: now, text: null, mtimeMs: 0, size: 0 });
      return null;
    }
    looks.set(this.path, { at: now, text, mtimeMs: stats.mtimeMs, size: stats.size });
    return text;
  }

  async down(marker: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, marker);
    await rename(temporary, this.path);
    looks.delete(this.path);
  }

  async up(): Promise<boolean> {
    const was = statSync(this.path, { throwIfNoEntry: false }) !== undefined;
    await rm(this.path, { force: true });
    looks.delete(this.path);
    return was;
  }
}
