import { defineConfig } from 'vitest/config';

/**
 * Benchmarks print their figures; they assert nothing about speed. Those that compare the
 * backends run both, side by side, on a throwaway PostgreSQL as durable as a firm's.
 */
export default defineConfig({
  test: {
    include: ['test/bench/**/*.bench.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
    silent: false,
    globalSetup: ['test/support/postgresBench.ts'],
  },
});
