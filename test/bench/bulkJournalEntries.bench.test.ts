import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { it } from 'vitest';
import { spawnBooks, temporaryHome } from '../helpers/cli.js';

const PRELOAD_ENTRIES = 100_000;
const MEASURED_REQUESTS = 400;
const CONCURRENCY = 4;
const ENTRIES_PER_REQUEST = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Bulk journal entry creation through HTTP: `books serve` in its own process on a file
 * database, this process as the client. Prints figures; asserts nothing about speed.
 */
it('bulk create: 100 entries × 4 lines per request, 100,000 entries already stored', async () => {
  const home = temporaryHome();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-'));
  const server = spawnBooks(
    [
      'serve',
      '--db',
      path.join(dir, 'bench.sqlite'),
      '--port',
      '0',
      '--org-token',
      'bench',
      '--rate-limit',
      '0',
    ],
    home.env,
  );
  try {
    const banner = await server.waitForStderr('organization token');
    const baseUrl = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
    const pool = new Pool(baseUrl, { connections: CONCURRENCY, pipelining: 1 });
    const call = async (method: 'GET' | 'POST', requestPath: string, body?: unknown) => {
      const response = await pool.request({
        method,
        path: requestPath,
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300)
        throw new Error(`${method} ${requestPath}: ${response.statusCode} ${text}`);
      return JSON.parse(text);
    };

    const workspace = (await call('POST', '/platform/v1/workspaces', { name: 'Bench' })).workspace;
    const entity = (
      await call('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, { name: 'Bench Co' })
    ).entity;
    const base = `/platform/v1/entities/${entity.id}`;
    const accounts = (
      await call('POST', `${base}/chart-of-accounts/bulk`, {
        accounts: [
          { name: 'Checking', type: 'Cash' },
          { name: 'Sales', type: 'Income' },
          { name: 'Rent', type: 'Operating Expenses' },
          { name: 'Supplies', type: 'Operating Expenses' },
        ],
      })
    ).data.map((a: { id: string }) => a.id);

    let serial = 0;
    let chronological = true;
    /** A ledger export runs in date order (≈ 90 entries a day); `scattered` spreads 3 years. */
    const dayOf = (n: number) =>
      chronological
        ? new Date(Date.UTC(2023, 0, 1) + Math.floor(n / 90) * 86_400_000)
            .toISOString()
            .slice(0, 10)
        : `202${4 + (n % 3)}-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`;
    const batch = () => ({
      journalEntries: Array.from({ length: ENTRIES_PER_REQUEST }, () => {
        serial += 1;
        const day = dayOf(serial);
        const cents = 1000 + (serial % 50_000);
        return {
          date: day,
          memo: `Invoice ${serial}`,
          lines: [
            {
              accountId: accounts[2],
              debitAmount: cents / 100,
              description: `SQ *BLUE BOTTLE ${serial % 997}`,
            },
            { accountId: accounts[3], debitAmount: 12.34 },
            { accountId: accounts[0], creditAmount: (cents + 1234 - 500) / 100 },
            { accountId: accounts[1], creditAmount: 5 },
          ],
        };
      }),
    });

    const run = async (label: string, requests: number) => {
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < requests) {
            next += 1;
            const body = batch();
            const t0 = performance.now();
            await call('POST', `${base}/journal-entries/bulk`, body);
            latencies.push(performance.now() - t0);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      console.log(
        `${label.padEnd(44)} ${(requests / seconds).toFixed(0).padStart(5)} req/s  ${((requests * ENTRIES_PER_REQUEST) / seconds).toFixed(0).padStart(6)} entries/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      );
    };

    await run(
      `preload ${PRELOAD_ENTRIES.toLocaleString('en-US')} entries, in date order`,
      PRELOAD_ENTRIES / ENTRIES_PER_REQUEST,
    );
    await run(`bulk create, date order, ${CONCURRENCY} in flight`, MEASURED_REQUESTS);
    chronological = false;
    await run(`bulk create, dates scattered over 3 years`, MEASURED_REQUESTS);
    console.log('target: ≥ 20,000 entries/s sustained on this 2-core machine');
    await pool.close();
  } finally {
    server.child.kill('SIGTERM');
    await server.result;
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});
