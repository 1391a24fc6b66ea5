import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { freshPostgresDatabase } from '../helpers/backend.js';
import { cpuSoFar, percentile, processTree, rssMb } from '../helpers/benchProcesses.js';
import { benchClient } from '../helpers/benchClient.js';
import { serveBooks, temporaryHome } from '../helpers/cli.js';

const CLIENTS = 50;
const SECONDS = Number(process.env.BOOKS_LOAD_SECONDS ?? 20);
/** A client's share of requests that are bulk writes in the mix (the rest are reports). */
const WRITE_SHARE = 0.2;

type Kind = 'reports' | 'bulk writes' | 'mix';

interface PhaseResult {
  label: string;
  requests: number;
  perSecond: number;
  fives: number;
  fours: number;
  report: number[];
  write: number[];
  /** CPU milliseconds per request, of books serve, of PostgreSQL and of the load's client. */
  serveCpuMs: number;
  postgresCpuMs: number;
  clientCpuMs: number;
}

/** The cores this machine has (shared by the servers, PostgreSQL and the load's client). */
const CORES = os.availableParallelism();

/**
 * 50 concurrent clients against `books serve` (a keyed bulk write of 100 entries, or a report
 * by month over a year: P&L, balance sheet, cash flow, trial balance), on each backend side by
 * side: one process on a SQLite file, as every firm has had it, and two processes
 * (`--workers 2`) on PostgreSQL. Phases of `BOOKS_LOAD_SECONDS` (20 s unless told): reports
 * alone, bulk writes alone, the 80/20 mix with each client sending its next request as soon as
 * it has an answer, and the mix with a 250 ms pause. Prints requests per second, 5xx and 4xx,
 * latencies, each process class's CPU per request (what one more core or machine buys) and each
 * serve process's peak memory. Asserts nothing.
 */
it(`${CLIENTS} clients: reports, bulk writes and the mix, one SQLite process against two PostgreSQL ones`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-load-'));
  const home = temporaryHome();
  const postgres = await freshPostgresDatabase();
  const lines: string[] = [];
  try {
    for (const [name, flags] of [
      ['SQLite, one process', ['--db', path.join(dir, 'load.sqlite')]],
      ['PostgreSQL, --workers 2', ['--db', postgres.url, '--workers', '2']],
    ] as const) {
      lines.push(`${name}:`);
      const { results, peakRssMb } = await loadPhases(home, [...flags, '--rate-limit', '0']);
      for (const result of results) lines.push(...describe(result));
      lines.push(
        `  peak RSS of each serve process: ${peakRssMb.map((mb) => mb.toFixed(0)).join(', ')} MB`,
      );
      lines.push('');
    }
    console.log(
      [
        ...lines,
        'targets: zero 5xx; on PostgreSQL with --workers 2, bulk writes and the mix ≥ 1.5× one SQLite process; report p99 ≤ 100 ms; peak RSS of each serve process ≤ 250 MB',
      ].join('\n'),
    );
  } finally {
    await postgres.drop();
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});

function describe(result: PhaseResult): string[] {
  const ms = (values: number[], p: number) => percentile(values, p).toFixed(1).padStart(7);
  return [
    `  ${result.label}: ${result.perSecond.toFixed(0)} requests/s (${result.requests}), ${result.fives} 5xx, ${result.fours} 4xx${result.write.length > 0 ? `; ${((result.write.length * 100 * result.perSecond) / result.requests).toFixed(0)} entries/s written` : ''}`,
    `    CPU a request: serve ${result.serveCpuMs.toFixed(2)} ms, PostgreSQL ${result.postgresCpuMs.toFixed(2)} ms, the load's client ${result.clientCpuMs.toFixed(2)} ms; without the client, ${CORES} cores would answer at most ${((CORES * 1000) / (result.serveCpuMs + result.postgresCpuMs)).toFixed(0)}/s (and one process, on one core, ${(1000 / result.serveCpuMs).toFixed(0)}/s)`,
    ...(result.report.length > 0
      ? [
          `    reports (${result.report.length}): p50 ${ms(result.report, 50)} ms  p99 ${ms(result.report, 99)} ms`,
        ]
      : []),
    ...(result.write.length > 0
      ? [
          `    bulk writes of 100 (${result.write.length}): p50 ${ms(result.write, 50)} ms  p99 ${ms(result.write, 99)} ms`,
        ]
      : []),
  ];
}

async function loadPhases(
  home: ReturnType<typeof temporaryHome>,
  flags: string[],
): Promise<{ results: PhaseResult[]; peakRssMb: number[] }> {
  const server = await serveBooks(home, flags, { asGiven: true });
  const client = benchClient(server.baseUrl, CLIENTS);
  const call = client.call;
  try {
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
    // Warm: every route once, and a few seconds of the mix unmeasured.
    for (const report of reports) await call('GET', report);

    const phase = async (kind: Kind, thinkMs: number, seconds: number): Promise<PhaseResult> => {
      const latency = { report: [] as number[], write: [] as number[] };
      let fives = 0;
      let fours = 0;
      const cpuBefore = cpuSoFar(server.pid);
      const clientBefore = process.cpuUsage();
      const from = performance.now();
      const loop = async () => {
        while (performance.now() - from < seconds * 1000) {
          const write = kind === 'bulk writes' || (kind === 'mix' && Math.random() < WRITE_SHARE);
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
          if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, loop));
      const elapsed = (performance.now() - from) / 1000;
      const cpuAfter = cpuSoFar(server.pid);
      const clientCpu = process.cpuUsage(clientBefore);
      const requests = latency.report.length + latency.write.length;
      return {
        label: `${kind}${thinkMs > 0 ? `, ${thinkMs} ms pause` : ''}`,
        requests,
        perSecond: requests / elapsed,
        fives,
        fours,
        ...latency,
        serveCpuMs: ((cpuAfter.serve - cpuBefore.serve) / requests) * 1000,
        postgresCpuMs: ((cpuAfter.postgres - cpuBefore.postgres) / requests) * 1000,
        clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / requests,
      };
    };
    await phase('mix', 0, 3);
    const results = [
      await phase('reports', 0, SECONDS),
      await phase('bulk writes', 0, SECONDS),
      await phase('mix', 0, SECONDS),
      await phase('mix', 250, SECONDS),
    ];
    return { results, peakRssMb: processTree(server.pid).map((pid) => rssMb(pid, 'VmHWM')) };
  } finally {
    await client.close();
    await server.stop();
  }
}
