import { defineConfig } from 'vitest/config';

/** Benchmarks print their figures; they assert nothing about speed. */
export default defineConfig({
  test: {
    include: ['test/bench/**/*.bench.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
    silent: false,
  },
});
