import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { it } from 'vitest';
import { SERVE_TOKEN, serveBooks, temporaryHome } from '../helpers/cli.js';

const CLIENTS = 50;
const SECONDS = Number(process.env.BOOKS_LOAD_SECONDS ?? 60);
/** A client's share of requests that are bulk writes (the rest are reports). */
const WRITE_SHARE = 0.2;

const rssMb = (pid: number, field: 'VmRSS' | 'RssAnon') => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  } catch {
    return Number.NaN;
  }
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};

/**
 * 50 concurrent clients for 60 s against `books serve` on a file database, each sending reports
 * (P&L, balance sheet, cash flow, trial balance by month over a year) and, one request in five,
 * a keyed bulk write of 100 entries: first each sending its next request as soon as it has an
 * answer, then for another 60 s each pausing 250 ms between requests. Prints 5xx and 4xx counts,
 * report and write latencies, each request's own time alone (the limit: one thread answers one
 * request at a time, so a closed loop of 50 clients waits about 50 of them), and the server's
 * memory every 10 s. Targets (printed, not asserted): zero 5xx, report p99 ≤ 50 ms, RSS flat
 * after warm-up. `BOOKS_LOAD_SECONDS` shortens each phase.
 */
it(`${CLIENTS} clients mixing reports and bulk writes for ${SECONDS} s`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-load-'));
  const home = temporaryHome();
  const server = await serveBooks(home, [
    '--db',
    path.join(dir, 'load.sqlite'),
    '--rate-limit',
    '0',
  ]);
  try {
    const { baseUrl } = server;
    const pool = new Pool(baseUrl, { connections: CLIENTS });
    /** A request; its answer read only when `read` (the load reads none: the client's own work
     * would count in the latencies it measures). */
    const call = async (method: string, url: string, body?: unknown, key?: string, read = true) => {
      const response = await pool.request({
        method: method as 'GET',
        path: url,
        headers: {
          authorization: `Bearer ${SERVE_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(key && { 'idempotency-key': key }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!read && response.statusCode < 400) {
        await response.body.dump();
        return { status: response.statusCode, body: undefined };
      }
      const text = await response.body.text();
      return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
    };
    const { workspace } = (await call('POST', '/platform/v1/workspaces', { name: 'Load' })).body;
    const { entity } = (
      await call('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, { name: 'Load Co' })
    ).body;
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
    ).body.data as { id: string }[];
    let batches = 0;
    const bulk = (read = true) => {
      const n = batches++;
      const journalEntries = Array.from({ length: 100 }, (_, i) => {
        const amount = ((((n * 100 + i) * 7919) % 100_000) + 100) / 100;
        const [debit, credit] =
          i % 3 === 0 ? [accounts[0]!, accounts[1]!] : [accounts[2 + (i % 2)]!, accounts[0]!];
        return {
          date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`,
          memo: `load ${n}-${i}`,
          lines: [
            { accountId: debit.id, debitAmount: amount, description: `LOAD ${n}` },
            { accountId: credit.id, creditAmount: amount, description: `LOAD ${n}` },
          ],
        };
      });
      return call('POST', `${base}/journal-entries/bulk`, { journalEntries }, `load-${n}`, read);
    };
    for (let i = 0; i < 100; i += 1) await bulk(); // 10,000 entries to report on

    const reports = ['profit-and-loss', 'balance-sheet', 'cash-flow', 'trial-balance'].map(
      (kind) => `${base}/reports/${kind}?startDate=2025-01-01&endDate=2025-12-31&groupBy=month`,
    );
    // The limit: each request's own time, one at a time (the median of 20), before the load.
    const alone = async (send: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const t = performance.now();
        await send();
        times.push(performance.now() - t);
      }
      return percentile(times, 50);
    };
    const reportAlone: number[] = [];
    for (const report of reports) reportAlone.push(await alone(() => call('GET', report)));
    const writeAlone = await alone(bulk);
    const meanReport = reportAlone.reduce((a, b) => a + b, 0) / reportAlone.length;
    const service = (1 - WRITE_SHARE) * meanReport + WRITE_SHARE * writeAlone;

    const memory: string[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      const at = Math.round((performance.now() - started) / 1000);
      memory.push(
        `${String(at).padStart(3)} s: RSS ${rssMb(server.pid, 'VmRSS').toFixed(0)} MB (own ${rssMb(server.pid, 'RssAnon').toFixed(0)} MB)`,
      );
    }, 10_000);
    const ms = (values: number[], p: number) => percentile(values, p).toFixed(1).padStart(7);
    /** The clients for `seconds`, each pausing `thinkMs` between its requests. */
    const load = async (seconds: number, thinkMs: number) => {
      const latency = { report: [] as number[], write: [] as number[] };
      let fives = 0;
      let fours = 0;
      const refusals = new Set<string>();
      const from = performance.now();
      const client = async () => {
        while (performance.now() - from < seconds * 1000) {
          const write = Math.random() < WRITE_SHARE;
          const t = performance.now();
          const answer = write
            ? await bulk(false)
            : await call(
                'GET',
                reports[Math.floor(Math.random() * reports.length)]!,
                undefined,
                undefined,
                false,
              );
          (write ? latency.write : latency.report).push(performance.now() - t);
          if (answer.status >= 500) fives += 1;
          else if (answer.status >= 400) fours += 1;
          if (answer.status >= 400 && refusals.size < 5) {
            refusals.add(`${answer.status} ${answer.body?.message}`);
          }
          if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      return [
        `${CLIENTS} clients, ${seconds} s, ${thinkMs === 0 ? 'each sending its next request at once' : `each pausing ${thinkMs} ms between requests`}: ${latency.report.length + latency.write.length} requests, ${fives} 5xx, ${fours} 4xx${refusals.size > 0 ? ` (${[...refusals].join('; ')})` : ''}`,
        `  reports (${latency.report.length}): p50 ${ms(latency.report, 50)} ms  p99 ${ms(latency.report, 99)} ms  max ${Math.max(...latency.report).toFixed(1)} ms`,
        `  bulk writes of 100 (${latency.write.length}): p50 ${ms(latency.write, 50)} ms  p99 ${ms(latency.write, 99)} ms`,
      ];
    };
    const results = [...(await load(SECONDS, 0)), ...(await load(SECONDS, 250))];
    clearInterval(sampler);
    await pool.close();
    console.log(
      [
        ...results,
        `alone, one at a time: reports ${reportAlone.map((t) => t.toFixed(1)).join(', ')} ms (P&L, balance sheet, cash flow, trial balance by month); a bulk of 100 ${writeAlone.toFixed(1)} ms`,
        `the limit on one thread: a mean request takes ${service.toFixed(1)} ms, so ${CLIENTS} clients each waiting for their answer see about ${(CLIENTS * service).toFixed(0)} ms per request`,
        `server memory, every 10 s:`,
        ...memory.map((line) => `  ${line}`),
        'targets: zero 5xx; report p99 ≤ 50 ms; RSS flat after warm-up',
      ].join('\n'),
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});
