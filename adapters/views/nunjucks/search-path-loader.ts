/**
 * Finds templates by name in an ordered list of folders (the app's `resources/views` first,
 * then the framework's `templates/`), so a file in an earlier folder replaces the file of the
 * same name in a later one. Names never reach outside their folder (`../` is refused).
 *
 * It hands nunjucks templates it has compiled itself (template-compiler.ts). Nunjucks keeps
 * each one in its cache unless `reload` asks for a fresh read on every render.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { CompiledTemplate } from './template-compiler.js';

export type CompileTemplate = (source: string, name: string) => CompiledTemplate;

/** The shape nunjucks' `getTemplate` reads from a loader. */
export interface CompiledSource {
  src: { type: 'code'; obj: CompiledTemplate };
  path: string;
  noCache: boolean;
}

export class SearchPathLoader {
  private readonly roots: string[];
  /** Where each name was found (or not), when templates do not change while the app runs. */
  private readonly found = new Map<string, string | undefined>();

  constructor(
    searchPaths: readonly string[],
    private readonly compile: CompileTemplate,
    private readonly reload: boolean,
  ) {
    this.roots = searchPaths.map((path) => resolve(path));
  }

  /**
   * The file that serves `name`, or undefined when no folder has it. Remembered unless
   * templates are reloaded: error pages ask for three names on every error, and a file system
   * call per render was a measurable share of a page's time (bench/http-kernel.bench.ts).
   */
  find(name: string): string | undefined {
    if (this.reload) return this.search(name);
    if (!this.found.has(name)) {
      // Bounded: names come from code, but a cap keeps a bug from growing it without end.
      if (this.found.size >= 10_000) this.found.clear();
      this.found.set(name, this.search(name));
    }
    return this.found.get(name);
  }

  private search(name: string): string | undefined {
    for (const root of this.roots) {
      const file = resolve(root, name);
      if (!file.startsWith(root + sep)) continue;
      if (statSync(file, { throwIfNoEntry: false })?.isFile() === true) return file;
    }
    return undefined;
  }

  /** Called by nunjucks on a cache miss; `null` tells it to report the template as missing. */
  getSource(name: string): CompiledSource | null {
    const file = this.find(name);
    if (file === undefined) return null;
    const source = readFileSync(file, 'utf8');
    return { src: { type: 'code', obj: this.compile(source, name) }, path: file, noCache: this.reload };
  }
}
