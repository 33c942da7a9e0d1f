import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

export interface PublicFile {
  absolutePath: string;
  /** Bytes, for checking a Range against it. */
  size: number;
}

/**
 * The app's `public/` folder, served at the site's root before sessions and maintenance mode,
 * then the framework's own (its stylesheet `fw/fw.css`): the first folder holding a path
 * answers, so an app replaces a framework file by putting one at the same path. Paths are
 * confined to their folder (no `..`, no hidden files), and `asset(path)` gives a URL carrying a
 * hash of the file's content, so such URLs can be cached for a year and change when the file does.
 */
export class PublicFiles {
  private readonly hashes = new Map<string, { mtimeMs: number; hash: string }>();
  private readonly looked = new Map<string, PublicFile | null>();

  /**
   * `watch`: files may change while the app runs (local development), so every lookup asks
   * the disk. Otherwise answers are remembered: the lookup runs before routing on every GET.
   */
  constructor(
    private readonly roots: readonly string[],
    private readonly watch = true,
  ) {}

  /** The file a URL path names, from the first folder that has it. */
  lookup(urlPath: string): PublicFile | null {
    if (this.watch || this.roots.length === 0) return this.find(urlPath);
    let found = this.looked.get(urlPath);
    if (found === undefined) {
      // Bounded, since scanners ask for endless made-up paths.
      if (this.looked.size >= 10_000) this.looked.clear();
      found = this.find(urlPath);
      this.looked.set(urlPath, found);
    }
    return found;
  }

  private find(urlPath: string): PublicFile | null {
    if (this.roots.length === 0 || urlPath === '/' || urlPath.length > 1024) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
    for (const root of this.roots) {
      const absolutePath = normalize(join(root, decoded));
      if (!absolutePath.startsWith(root + sep)) return null;
      try {
        const stats = statSync(absolutePath);
        if (stats.isFile()) return { absolutePath, size: stats.size };
      } catch {
        // Not in this folder: the next one may have it.
      }
    }
    return null;
  }

  /** `/css/app.css?v=1a2b3c4d5e6f`; a missing file gets its plain path, so a page still renders. */
  assetUrl(path: string): string {
    const urlPath = path.startsWith('/') ? path : `/${path}`;
    const file = this.lookup(urlPath);
    if (file === null) return urlPath;
    let entry = this.hashes.get(file.absolutePath);
    // Outside local development files do not change: a page's asset() calls cost no disk access.
    if (entry !== undefined && !this.watch) return `${urlPath}?v=${entry.hash}`;
    const { mtimeMs } = statSync(file.absolutePath);
    if (entry === undefined || entry.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, hash: createHash('sha256').update(readFileSync(file.absolutePath)).digest('hex').slice(0, 12) };
      this.hashes.set(file.absolutePath, entry);
    }
    return `${urlPath}?v=${entry.hash}`;
  }
}

/**
 * Whether hapi can serve this Range of a file of `size` bytes. One it cannot (`bytes=5000-` of
 * a small file) must be dropped before the file is sent: hapi would answer it with a 416 made
 * after onPreResponse, without the security headers and the request id. RFC 9110 lets a server
 * ignore any Range, and the whole file is a fine answer. Mirrors @hapi/ammo's rule: every
 * range of the set must fit.
 */
export function rangeFits(range: string | undefined, size: number): boolean {
  if (range === undefined) return true;
  const specs = /^bytes=(.*)$/isu.exec(range)?.[1]?.split(',') ?? [];
  return specs.every((spec) => {
    const [first = '', last = ''] = spec.trim().split('-');
    if (first === '') return Number(last) > 0; // the last n bytes
    return Number(first) < size && (last === '' || Number(first) <= Number(last));
  });
}
