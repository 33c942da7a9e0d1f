import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

export interface PublicFile {
  absolutePath: string;
}

/**
 * The app's `public/` folder, served at the site's root before sessions and maintenance mode.
 * Paths are confined to the folder (no `..`, no hidden files), and `asset(path)` gives a URL
 * carrying a hash of the file's content, so such URLs can be cached for a year and change when
 * the file does.
 */
export class PublicFiles {
  private readonly hashes = new Map<string, { mtimeMs: number; hash: string }>();

  constructor(private readonly root: string | null) {}

  /** The file a URL path names, if the folder has it. */
  lookup(urlPath: string): PublicFile | null {
    if (this.root === null || urlPath === '/' || urlPath.length > 1024) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
    const absolutePath = normalize(join(this.root, decoded));
    if (!absolutePath.startsWith(this.root + sep)) return null;
    try {
      return statSync(absolutePath).isFile() ? { absolutePath } : null;
    } catch {
      return null;
    }
  }

  /** `/css/app.css?v=1a2b3c4d5e6f`; a missing file gets its plain path, so a page still renders. */
  assetUrl(path: string): string {
    const urlPath = path.startsWith('/') ? path : `/${path}`;
    const file = this.lookup(urlPath);
    if (file === null) return urlPath;
    const { mtimeMs } = statSync(file.absolutePath);
    let entry = this.hashes.get(file.absolutePath);
    if (entry === undefined || entry.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, hash: createHash('sha256').update(readFileSync(file.absolutePath)).digest('hex').slice(0, 12) };
      this.hashes.set(file.absolutePath, entry);
    }
    return `${urlPath}?v=${entry.hash}`;
  }
}
