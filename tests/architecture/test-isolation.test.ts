import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * vitest.config.ts runs tests/unit and tests/architecture in one module graph per worker. A file
 * there that replaces a module or a global would get the real one whenever an earlier file in
 * the same worker had imported it first, and pass or fail by the order files happen to run in
 * (the oauth pending-sign-ins test did: it failed in every shuffled order). Such a file is named
 * `*.mocked.test.ts`, which the config runs in a graph of its own.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const SHARED_FOLDERS = ['tests/unit', 'tests/architecture'];
const REPLACES_SOMETHING = /\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)\s*\(/u;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

/** The files of a shared module graph that replace a module or a global, as paths from the repository. */
export function unisolatedReplacements(files: { path: string; source: string }[]): string[] {
  return files.filter((file) => !file.path.endsWith('.mocked.test.ts') && REPLACES_SOMETHING.test(file.source)).map((file) => file.path);
}

describe('test isolation', () => {
  it('no unit or architecture test replaces a module or a global unless it is named *.mocked.test.ts', () => {
    const files = SHARED_FOLDERS.flatMap((folder) => testFiles(join(repoRoot, folder)))
      // This file names the calls in its own samples below.
      .filter((path) => path !== fileURLToPath(import.meta.url))
      .map((path) => ({
      path: relative(repoRoot, path),
      source: readFileSync(path, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(100);
    expect(unisolatedReplacements(files)).toEqual([]);
  });

  it.each([
    ['vi.mock', `vi.mock('../x.js', () => ({}));`, true],
    ['vi.doMock', `vi.doMock('../x.js');`, true],
    ['vi.stubGlobal', `vi.stubGlobal('fetch', f);`, true],
    ['vi.stubEnv', `vi.stubEnv('APP_KEY', 'x');`, true],
    ['vi.resetModules', `vi.resetModules();`, true],
    ['a spy, which a test restores itself', `vi.spyOn(console, 'warn');`, false],
    ['a mocked function', `const f = vi.fn();`, false],
  ])('%s in a shared-graph file is refused: %s', (_name, source, refused) => {
    expect(unisolatedReplacements([{ path: 'tests/unit/x.test.ts', source }])).toEqual(refused ? ['tests/unit/x.test.ts'] : []);
    expect(unisolatedReplacements([{ path: 'tests/unit/x.mocked.test.ts', source }])).toEqual([]);
  });
});
