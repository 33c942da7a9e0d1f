import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files named `*.alone.test.ts` measure time over a real socket (whether an address has an
 * account must not show in how long the answer takes). The client, the server and whatever runs
 * beside them share CI's two cores, and a neighbour's burst reads as a difference that a visitor
 * on another machine would never see. So they run last, one at a time, with nothing beside them.
 */
const ALONE = 'tests/**/*.alone.test.ts';

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
        test: {
          name: 'suite',
          include: ['tests/**/*.test.ts'],
          exclude: [ALONE],
          // Database suites create their own database per file, so files may run in parallel;
          // two workers match the two cores CI has.
          maxWorkers: 2,
          globalSetup: ['tests/support/global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: [ALONE], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
