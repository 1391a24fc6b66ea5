import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per core: on 2 cores vitest's default ran the files one at a time (209 s against
    // 140 s with two, measured on the same host); the end-to-end files mostly wait on the
    // `books` processes they start.
    maxWorkers: availableParallelism(),
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
