import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suites that meet the platform's database: the contract suite and every end-to-end suite
 * that starts `books serve`. They run once on SQLite (with everything else) and once on a
 * throwaway PostgreSQL (test/support/postgres.ts). What only a SQLite file has (its faults, its
 * file modes) stays on SQLite.
 */
const ON_BOTH_BACKENDS = [
  'test/contract/**/*.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/coaImport.test.ts',
  'test/e2e/config.test.ts',
  'test/e2e/crashSweep.test.ts',
  'test/e2e/dbCheck.test.ts',
  'test/e2e/crashSweepWrites.test.ts',
  'test/e2e/importTrust.test.ts',
  'test/e2e/auditFileExport.test.ts',
  'test/e2e/close.test.ts',
  'test/e2e/firstMonth.test.ts',
  'test/e2e/trustedSuggestions.test.ts',
  'test/e2e/vatReturn.test.ts',
  'test/e2e/statementLayouts.test.ts',
  'test/e2e/bookkeepersDay.test.ts',
  'test/e2e/migrate.test.ts',
  'test/e2e/multiProcess.test.ts',
  'test/e2e/serve.test.ts',
  'test/e2e/streaming.test.ts',
  'test/e2e/webhooks.test.ts',
  'test/unit/idempotencyStore.test.ts',
  'test/unit/schemaUpgrade.test.ts',
  'test/unit/rateLimit.test.ts',
  'test/unit/webhookOutbox.test.ts',
];

/** What only PostgreSQL has: a server that goes away and comes back. */
const ON_POSTGRES_ONLY = [
  'test/e2e/dbCopy.test.ts',
  'test/e2e/postgresOutage.test.ts',
  'test/e2e/postgresStart.test.ts',
  'test/unit/postgresConnectionLoss.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker's test files share its imported modules: each file had imported the platform's
    // sources afresh (51 s of import in a run, against 13 s shared). Measured on the same host,
    // the whole run: 382 s isolated, 347 s shared. So a test file restores what it changes of the
    // process (its environment variables, its listeners) and keeps no state in a module. The heap
    // is shared too: after twenty files each young collection took about 20 ms, so a file that
    // needs tens of MB of strings at once makes them as bytes (test/contract/fuzz.test.ts).
    isolate: false,
    // That shared heap collects its young objects less often with room for 64 MB of them (V8's
    // default is 16): the test workers' own CPU over a whole run, measured on the same host,
    // 210 s with the default, 198 s with 32 MB, 173 s with 64 MB (the run 374, 365, 363 s).
    // The `books` processes the tests start keep Node's defaults.
    execArgv: ['--max-semi-space-size=64'],
    // One fork per core: on 2 cores vitest's default ran the files one at a time (209 s against
    // 140 s with two, measured on the same host); the end-to-end files mostly wait on the
    // `books` processes they start.
    maxWorkers: availableParallelism(),
    reporters: ['default', './test/support/summaryReporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ON_POSTGRES_ONLY },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...ON_BOTH_BACKENDS, ...ON_POSTGRES_ONLY],
          env: { BOOKS_TEST_BACKEND: 'postgres' },
          globalSetup: ['test/support/postgres.ts'],
          setupFiles: ['test/support/postgresCleanup.ts'],
        },
      },
      {
        // Each process with one connection: code that holds one while it waits for another
        // (a statement outside its own transaction) hangs here instead of under load.
        extends: true,
        test: {
          name: 'postgres-pool-1',
          include: ['test/contract/**/*.test.ts', 'test/e2e/multiProcess.test.ts'],
          env: { BOOKS_TEST_BACKEND: 'postgres', BOOKS_TEST_PG_POOL: '1' },
          globalSetup: ['test/support/postgres.ts'],
          setupFiles: ['test/support/postgresCleanup.ts'],
        },
      },
    ],
  },
});
