import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { it } from 'vitest';
import { spawnBooks, temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';

const PRELOAD_ENTRIES = 100_000;
const MEASURED_REQUESTS = 400;
const CONCURRENCY = 4;
const ENTRIES_PER_REQUEST = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * `count` entries of four lines from the `first`-th on: a ledger export runs in date order
 * (≈ 90 entries a day); otherwise dates are spread over 3 years.
 */
function entriesOf(accounts: string[], first: number, count: number, chronological: boolean) {
  return Array.from({ length: count }, (_, i) => {
    const serial = first + i + 1;
    const day = chronological
      ? new Date(Date.UTC(2023, 0, 1) + Math.floor(serial / 90) * 86_400_000)
          .toISOString()
          .slice(0, 10)
      : `202${4 + (serial % 3)}-${String((serial % 12) + 1).padStart(2, '0')}-${String((serial % 28) + 1).padStart(2, '0')}`;
    const cents = 1000 + (serial % 50_000);
    return {
      date: day,
      memo: `Invoice ${serial}`,
      lines: [
        {
          accountId: accounts[2]!,
          debitAmount: cents / 100,
          description: `SQ *BLUE BOTTLE ${serial % 997}`,
        },
        { accountId: accounts[3]!, debitAmount: 12.34 },
        { accountId: accounts[0]!, creditAmount: (cents + 1234 - 500) / 100 },
        { accountId: accounts[1]!, creditAmount: 5 },
      ],
    };
  });
}

/** A workspace, an entity and four accounts, made through `post`. */
async function benchLedger(post: (url: string, body: unknown) => Promise<any>) {
  const workspace = (await post('/platform/v1/workspaces', { name: 'Bench' })).workspace;
  const entity = (await post(`/sandbox/v1/workspaces/${workspace.id}/entities`, { name: 'B' }))
    .entity;
  const base = `/platform/v1/entities/${entity.id}`;
  const accounts: string[] = (
    await post(`${base}/chart-of-accounts/bulk`, {
      accounts: [
        { name: 'Checking', type: 'Cash' },
        { name: 'Sales', type: 'Income' },
        { name: 'Rent', type: 'Operating Expenses' },
        { name: 'Supplies', type: 'Operating Expenses' },
      ],
    })
  ).data.map((a: { id: string }) => a.id);
  return { entityId: entity.id as string, base, accounts };
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
      SERVE_TOKEN,
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
        headers: { authorization: `Bearer ${SERVE_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300)
        throw new Error(`${method} ${requestPath}: ${response.statusCode} ${text}`);
      return JSON.parse(text);
    };

    const { base, accounts } = await benchLedger((url, body) => call('POST', url, body));

    let serial = 0;
    let chronological = true;
    /**
     * The bodies are made before the clock starts and answers are read but not parsed: this
     * process shares the two cores with the server, and its own JSON work is not the platform's.
     */
    const run = async (label: string, requests: number) => {
      const bodies = Array.from({ length: requests }, () => {
        const journalEntries = entriesOf(accounts, serial, ENTRIES_PER_REQUEST, chronological);
        serial += ENTRIES_PER_REQUEST;
        return JSON.stringify({ journalEntries });
      });
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < requests) {
            const body = bodies[next]!;
            next += 1;
            const t0 = performance.now();
            const response = await pool.request({
              method: 'POST',
              path: `${base}/journal-entries/bulk`,
              headers: {
                authorization: `Bearer ${SERVE_TOKEN}`,
                'content-type': 'application/json',
              },
              body,
            });
            const text = await response.body.text();
            if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${text}`);
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

/**
 * Where the time of a bulk create goes: the same requests in this process, first through
 * Fastify's inject (routing, JSON, validation, idempotency; no socket), then straight to the
 * engine (checks and SQLite only). Prints figures; asserts nothing about speed.
 */
it('bulk create without the network, then without HTTP: the floor under the target', async () => {
  const { createPlatform } = await import('../../src/platform/index.js');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-'));
  const platform = await createPlatform({
    database: path.join(dir, 'bench.sqlite'),
    orgToken: SERVE_TOKEN,
    rateLimitPerSecond: 0,
  });
  try {
    const call = async (url: string, payload: unknown) => {
      const response = await platform.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${SERVE_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
      return JSON.parse(response.body);
    };
    const { entityId, base, accounts } = await benchLedger(call);

    let serial = 0;
    const measure = async (label: string, entries: number, send: (batch: unknown[]) => unknown) => {
      const started = performance.now();
      for (let done = 0; done < entries; done += ENTRIES_PER_REQUEST) {
        await send(entriesOf(accounts, serial, ENTRIES_PER_REQUEST, true));
        serial += ENTRIES_PER_REQUEST;
      }
      const seconds = (performance.now() - started) / 1000;
      if (label)
        console.log(`${label.padEnd(44)} ${(entries / seconds).toFixed(0).padStart(6)} entries/s`);
    };
    const engine = (batch: unknown[]) =>
      platform.engine.journalEntries.bulkCreate(
        platform.defaultOrganizationId,
        entityId,
        batch as Parameters<typeof platform.engine.journalEntries.bulkCreate>[2],
      );
    await measure('', PRELOAD_ENTRIES, engine);
    await measure('in process, Fastify inject, one at a time', 40_000, (batch) =>
      call(`${base}/journal-entries/bulk`, { journalEntries: batch }),
    );
    await measure('in process, the engine alone', 40_000, engine);
  } finally {
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
