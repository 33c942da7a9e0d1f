import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files named `*.alone.test.ts` measure time over a real socket (whether an address has an
 * account must not show in how long the answer takes). The client, the server and whatever runs
 * beside them share CI's two cores, and a neighbour's burst reads as a difference that a visitor
 * on another machine would never see. So they run last, one at a time, with nothing beside them.
 */
const ALONE = 'tests/**/*.alone.test.ts';

/**
 * Unit and architecture tests share one module graph per worker (`isolate: false`): they hold
 * no state between files, and importing the framework afresh for each of ~150 files was two
 * thirds of their time (69 s → 21 s on a two-core machine). A file that replaces a module
 * (`vi.mock`) or a global needs a fresh graph, since an earlier file may already hold the real
 * one: it is named `*.mocked.test.ts` and runs with the isolated suite
 * (tests/architecture/test-isolation.test.ts keeps to that).
 */
const SHARED_GRAPH = ['tests/unit', 'tests/architecture'];

export default defineConfig({
  // `import … from 'fw'` in files the generators write (make:model…), as an app would import it.
  resolve: { alias: [{ find: /^fw$/u, replacement: fileURLToPath(new URL('./composition/index.ts', import.meta.url)) }] },
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // First, and on their own: beside the suite they would add workers to CI's two cores.
        test: { name: 'unit', include: SHARED_GRAPH.map((folder) => `${folder}/**/*.test.ts`), exclude: ['tests/**/*.mocked.test.ts', ALONE], isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['tests/**/*.test.ts'],
          // The mocked unit files are back here, each in a module graph of its own.
          exclude: [ALONE, ...SHARED_GRAPH.map((folder) => `${folder}/**/!(*.mocked).test.ts`)],
          // Database suites create their own database per file, so files may run in parallel;
          // two workers match the two cores CI has.
          maxWorkers: 2,
          globalSetup: ['tests/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: [ALONE], maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
