import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
  private readonly listed = new Map<string, string[]>();
  private readonly looked = new Map<string, PublicFile | null>();

  /**
   * `watch`: files may change while the app runs (local development), so every lookup asks
   * the disk. Otherwise answers are remembered: the lookup runs before routing on every GET.
   */
  constructor(
    private readonly roots: readonly string[],
    private readonly watch = true,
    /**
     * Single files served at a URL path from outside the folders, after them (so an app's own
     * file at that path still wins): the framework's copy of htmx, read straight from the
     * pinned npm package, so the file served is always the package's.
     */
    private readonly mounted: ReadonlyMap<string, string> = new Map(),
  ) {}

  /**
   * The names of the files directly in a folder of the public folders (`fw/ui`), the union
   * over every root, sorted; hidden files left out. Used by `fw_ui()` to link each stylesheet.
   */
  list(urlDir: string): string[] {
    // Outside local development the folders do not change: every page calls this through
    // fw_ui(), so read each folder once, as lookup() and assetUrl() do for files.
    const cached = this.watch ? undefined : this.listed.get(urlDir);
    if (cached !== undefined) return cached;
    const names = this.readList(urlDir);
    if (!this.watch) this.listed.set(urlDir, names);
    return names;
  }

  private readList(urlDir: string): string[] {
    const dir = urlDir.replace(/^\/+|\/+$/gu, '');
    if (dir.split('/').some((segment) => segment.startsWith('.') || segment === '')) return [];
    const names = new Set<string>();
    for (const root of this.roots) {
      const absolute = normalize(join(root, dir));
      if (!absolute.startsWith(root + sep)) continue;
      try {
        for (const entry of readdirSync(absolute, { withFileTypes: true })) if (entry.isFile() && !entry.name.startsWith('.')) names.add(entry.name);
      } catch {
        // This root has no such folder.
      }
    }
    return [...names].sort();
  }

  /** The file a URL path names, from the first folder that has it. */
  lookup(urlPath: string): PublicFile | null {
    if (this.watch || (this.roots.length === 0 && this.mounted.size === 0)) return this.find(urlPath);
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
    const found = this.findInRoots(urlPath);
    if (found !== null) return found;
    const mounted = this.mounted.get(urlPath);
    if (mounted === undefined) return null;
    try {
      return { absolutePath: mounted, size: statSync(mounted).size };
    } catch {
      return null;
    }
  }

  private findInRoots(urlPath: string): PublicFile | null {
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
