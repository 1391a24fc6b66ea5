import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome } from '../helpers/cli.js';
import { killableServer, sendUntilKilled } from '../helpers/crashSweep.js';

const TOKEN = 'books_org_crash_sweep_8Hn3Wq6Zt1Xc4Vb7Mk2Lp9Rs5Dg0Fy';
const KILLS = 24;
const CONCURRENCY = 4;
const ENTRIES_PER_BATCH = 100;

/** Batch `n`'s 100 two-line entries: the same body for the same number, every time. */
function batchBody(n: number, checking: string, sales: string): string {
  const journalEntries = Array.from({ length: ENTRIES_PER_BATCH }, (_, i) => {
    const amount = ((((n * ENTRIES_PER_BATCH + i) * 7919) % 500_000) + 100) / 100;
    return {
      date: `2025-${String((n % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      memo: `batch ${n} entry ${i}`,
      lines: [
        { accountId: checking, debitAmount: amount, description: `SALE ${n}-${i}` },
        { accountId: sales, creditAmount: amount, description: `SALE ${n}-${i}` },
      ],
    };
  });
  return JSON.stringify({ journalEntries });
}

const cents = (body: string) =>
  (JSON.parse(body) as { journalEntries: { lines: { debitAmount?: number }[] }[] }).journalEntries
    .map((e) => Math.round(e.lines[0]!.debitAmount! * 100))
    .reduce((a, b) => a + b, 0);

/**
 * issue 16: `kill -9` of `books serve` at random moments during keyed bulk imports. Before the
 * fix, a kill after a batch's write committed but before its idempotency record was completed
 * left the key "in flight"; start-up cleared it, and the retry wrote the batch again.
 */
describe('books serve killed with SIGKILL during keyed bulk writes (a real SQLite file)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: ReturnType<typeof killableServer> | undefined;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(async () => {
    server?.kill();
    await server?.stopped();
    home.cleanup();
  });

  it(`after ${KILLS} kills and every key retried, each batch is in exactly once`, async () => {
    server = killableServer(home.env, path.join(home.home, 'crash.sqlite'), TOKEN);
    const { call } = server;
    await server.start();
    const { workspace } = (await call('POST', '/platform/v1/workspaces', '{"name":"Crash sweep"}'))
      .body;
    const { entity } = (
      await call('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, '{"name":"Killed Co"}')
    ).body;
    const accounts = (
      await call(
        'POST',
        `/platform/v1/entities/${entity.id}/chart-of-accounts/bulk`,
        JSON.stringify({
          accounts: [
            { name: 'Checking', type: 'Cash' },
            { name: 'Sales', type: 'Income' },
          ],
        }),
      )
    ).body.data as { id: string }[];
    const body = (n: number) => batchBody(n, accounts[0]!.id, accounts[1]!.id);
    const bulk = (n: number) =>
      call(
        'POST',
        `/platform/v1/entities/${entity.id}/journal-entries/bulk`,
        body(n),
        `crash-sweep-batch-${n}`,
      );

    // Each round: retry what is not yet acknowledged, then go on with new batches, 4 in flight,
    // until the server is killed after a random number of answers.
    const acknowledged = new Set<number>();
    let attempted = 0;
    for (let kill = 0; kill < KILLS; kill += 1) {
      if (kill > 0) await server.start();
      const queue = [...Array(attempted).keys()].filter((n) => !acknowledged.has(n));
      await sendUntilKilled({
        concurrency: CONCURRENCY,
        killAfter: 1 + Math.floor(Math.random() * 12),
        next: () => (queue.length > 0 ? queue.shift()! : attempted++),
        send: async (n) => {
          expect(await bulk(n)).toMatchObject({ status: 201 });
          acknowledged.add(n);
        },
        kill: () => server!.kill(),
      });
      await server.stopped();
    }

    // After the last restart every key is retried: each answers 201, replayed or written now.
    await server.start();
    let expectedCents = 0;
    for (let n = 0; n < attempted; n += 1) {
      expect(await bulk(n)).toMatchObject({ status: 201 });
      expectedCents += cents(body(n));
    }
    const total = (await call('GET', `/platform/v1/entities/${entity.id}/journal-entries?limit=1`))
      .body.pagination.total;
    expect(total).toBe(attempted * ENTRIES_PER_BATCH);
    const { report } = (
      await call(
        'GET',
        `/platform/v1/entities/${entity.id}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
      )
    ).body;
    expect(Math.round(report.totals.debit * 100)).toBe(expectedCents);
    expect(Math.round(report.totals.credit * 100)).toBe(expectedCents);
  }, 120_000);
});
