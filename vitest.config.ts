import { defineConfig } from 'vitest/config';

export default defineConfig({
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
