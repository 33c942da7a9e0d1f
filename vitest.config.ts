import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `import … from 'fw'` in files the generators write (make:model…), as an app would import it.
  resolve: { alias: [{ find: /^fw$/u, replacement: fileURLToPath(new URL('./composition/index.ts', import.meta.url)) }] },
  test: {
    include: ['tests/**/*.test.ts'],
    // Database suites create their own database per file, so files may run in parallel;
    // two workers match the two cores CI has.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/support/global-setup.ts'],
  },
});
