import { statSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MaintenanceSwitch } from '../../ports/maintenance-switch.js';

/**
 * The spec's marker file, `storage/framework/down`: its presence means down. A request costs
 * one `stat`; the text is read again only when the file changes. Written to a temporary name
 * and renamed, so no process ever reads half a marker.
 */
export class MarkerFileSwitch implements MaintenanceSwitch {
  private cached: { mtimeMs: number; size: number; text: string } | null = null;

  constructor(private readonly path: string) {}

  read(): string | null {
    const stats = statSync(this.path, { throwIfNoEntry: false });
    if (stats === undefined) {
      this.cached = null;
      return null;
    }
    if (this.cached === null || this.cached.mtimeMs !== stats.mtimeMs || this.cached.size !== stats.size) {
      let text: string;
      try {
        text = readFileSync(this.path, 'utf8');
      } catch {
        // Removed between stat and read: the site just came up.
        return null;
      }
      this.cached = { mtimeMs: stats.mtimeMs, size: stats.size, text };
    }
    return this.cached.text;
  }

  async down(marker: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, marker);
    await rename(temporary, this.path);
  }

  async up(): Promise<boolean> {
    const was = statSync(this.path, { throwIfNoEntry: false }) !== undefined;
    await rm(this.path, { force: true });
    this.cached = null;
    return was;
  }
}
