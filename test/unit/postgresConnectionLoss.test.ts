import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBackend } from '../../src/platform/store/postgres/backend.js';
import { openTransactionOf } from '../../src/platform/store/sql.js';
import { freshPostgresDatabase, TEST_BACKEND, type TestDatabase } from '../helpers/backend.js';

/** A pooled client's socket, which `pg` keeps as `connection.stream`. */
function socketOf(client: pg.PoolClient): { destroy(): void } {
  return (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
}

/**
 * PostgreSQL's connection lost under a transaction (a fast shutdown, the network): that
 * transaction fails, and the process goes on. Found when `books serve` ended with an unhandled
 * rejection as PostgreSQL stopped under an import: the BEGIN sent ahead of the work failed while
 * the work was waiting on something else, and nothing listened to it until the work was done.
 */
describe.skipIf(TEST_BACKEND !== 'postgres')('a PostgreSQL connection lost mid-transaction', () => {
  let database: TestDatabase;
  let backend: PostgresBackend;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    backend = await PostgresBackend.open(database.url);
  });
  afterAll(async () => {
    await backend?.close();
    await database?.drop();
  });

  it('while BEGIN is in flight and the work waits on something else: that transaction fails, nothing goes unhandled', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const lost = backend.transaction(async () => {
        const client = openTransactionOf<pg.PoolClient>(backend)!.connection;
        socketOf(client).destroy();
        await new Promise((resolve) => client.once('end', resolve));
        // A turn of the event loop, as work that waits on a lock or a file takes.
        await new Promise((resolve) => setImmediate(resolve));
      });
      await expect(lost).rejects.toThrow(/Connection terminated/);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      // The pool dropped that connection and makes another.
      expect(await backend.sql.get('SELECT 1 AS one')).toEqual({ one: 1 });
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
