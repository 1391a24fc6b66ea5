import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { freshPostgresDatabase, type TestDatabase } from '../helpers/backend.js';
import { cpuSoFar } from '../helpers/benchProcesses.js';
import { writeSalesLedger } from '../helpers/salesLedger.js';
import {
  BOOKS_BIN,
  chooseNewEntity,
  spawnBooks,
  temporaryHome,
  SERVE_TOKEN,
} from '../helpers/cli.js';

/** Lines of the CSV: a million unless BENCH_MIGRATE_LINES says (100000: the 100,000 postings). */
const LINES = Number(process.env.BENCH_MIGRATE_LINES ?? 1_000_000);

interface Run {
  seconds: number;
  peakMb: number;
  /** User and system CPU of the CLI. */
  cpuSeconds: number;
  /** CPU time the host took from this virtual machine meanwhile (both cores); NaN if unknown. */
  stolenSeconds: number;
  /** Over loopback: the CPU of `books serve` (every process) and of PostgreSQL meanwhile. */
  serverCpuSeconds?: { serve: number; postgres: number };
}

/** Linux's count of stolen CPU time (`/proc/stat`, in USER_HZ, 100 a second), in seconds. */
function stolenSoFar(): number {
  try {
    return Number(readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)[8]) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Runs `books` under /usr/bin/time. */
function timed(args: string[], env: NodeJS.ProcessEnv): Run {
  const stolenBefore = stolenSoFar();
  const started = performance.now();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%M %U %S', process.execPath, BOOKS_BIN, ...args],
    { env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0)
    throw new Error(`books ${args.join(' ')}: ${result.stderr.slice(-2000)}`);
  const [peakKb, user, system] = result.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return {
    seconds,
    peakMb: peakKb! / 1024,
    cpuSeconds: user! + system!,
    stolenSeconds: stolenSoFar() - stolenBefore,
  };
}

/** A workspace and an entity with a bookkeeping start date, chosen for the commands after. */
function setUp(env: NodeJS.ProcessEnv): void {
  for (const args of chooseNewEntity('Bench', 'Bench Co')) {
    const result = spawnSync(process.execPath, [BOOKS_BIN, ...args], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
  }
}

const migrate = (file: string, env: NodeJS.ProcessEnv) =>
  timed(['migrate', 'run', file, '--create-missing-accounts', '--no-wait'], env);

/** One migration into a fresh embedded platform. */
function embeddedRun(file: string): Run {
  const home = temporaryHome();
  try {
    setUp(home.env);
    return migrate(file, home.env);
  } finally {
    home.cleanup();
  }
}

/** One migration over loopback into a fresh `books serve` with these database flags. */
async function loopbackRun(file: string, databaseFlags: () => Promise<string[]>): Promise<Run> {
  const served = temporaryHome();
  const flags = await databaseFlags();
  const server = spawnBooks(
    ['serve', ...flags, '--port', '0', '--org-token', SERVE_TOKEN, '--rate-limit', '0'],
    served.env,
  );
  try {
    const baseUrl = /listening on (http:\/\/\S+)/.exec(
      await server.waitForStderr('organization token'),
    )![1]!;
    const env = { ...served.env, BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: SERVE_TOKEN };
    setUp(env);
    const before = cpuSoFar(server.child.pid!);
    const run = migrate(file, env);
    const after = cpuSoFar(server.child.pid!);
    return {
      ...run,
      serverCpuSeconds: {
        serve: after.serve - before.serve,
        postgres: after.postgres - before.postgres,
      },
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.result;
    served.cleanup();
  }
}

/** Runs of each mode; BENCH_RUNS sets how many (3 unless told). */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/**
 * Migrates 1,000,000 CSV lines (BENCH_MIGRATE_LINES) into the embedded platform and over loopback into `books
 * serve` (in memory, on a SQLite file, on PostgreSQL alone and with two processes), RUNS times
 * each, and prints every run and each mode's median. Asserts nothing.
 *
 * Each run also prints the CPU time the host stole from this virtual machine meanwhile. On the
 * two-core machines we are given, that has ranged from nothing to 30 s in one run: a run with
 * seconds of it measures the host's load, not books, and the median of several is the figure.
 */
it(`migrate run: a ${LINES.toLocaleString('en-US')}-line CSV, embedded and over loopback`, async () => {
  const dir = temporaryHome();
  try {
    const file = path.join(dir.home, 'ledger.csv');
    const entries = LINES / 4;
    await writeSalesLedger(file, entries);
    console.log(
      `wrote ${LINES.toLocaleString('en-US')} lines (${entries.toLocaleString('en-US')} entries, ${(statSync(file).size / 1e6).toFixed(0)} MB)`,
    );
    const rows: string[] = [];
    const row = (label: string, run: Run) => {
      const rate = Math.round(entries / run.seconds).toLocaleString('en-US');
      const server = run.serverCpuSeconds
        ? `   serve CPU ${run.serverCpuSeconds.serve.toFixed(1)} s, PostgreSQL ${run.serverCpuSeconds.postgres.toFixed(1)} s`
        : '';
      rows.push(
        `${label.padEnd(34)} ${rate.padStart(7)} entries/s   wall ${run.seconds.toFixed(1).padStart(4)} s` +
          `   CLI CPU ${run.cpuSeconds.toFixed(1).padStart(4)} s   CLI peak RSS ${run.peakMb.toFixed(0)} MB` +
          `   stolen ${run.stolenSeconds.toFixed(1)} s${server}`,
      );
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const postgres: TestDatabase[] = [];
    /** A fresh PostgreSQL database for each run (dropped at the end). */
    const onPostgres = (extra: string[]) => async () => {
      const database = await freshPostgresDatabase();
      postgres.push(database);
      return ['--db', database.url, ...extra];
    };
    for (const [mode, runOnce] of [
      ['embedded', async () => embeddedRun(file)],
      ['books serve --memory over loopback', () => loopbackRun(file, async () => ['--memory'])],
      [
        'books serve on a SQLite file',
        () =>
          loopbackRun(file, async () => [
            '--db',
            path.join(dir.home, `run-${Math.random()}.sqlite`),
          ]),
      ],
      ['books serve on PostgreSQL', () => loopbackRun(file, onPostgres([]))],
      [
        'books serve --workers 2 on PostgreSQL',
        () => loopbackRun(file, onPostgres(['--workers', '2'])),
      ],
    ] as const) {
      const runs: Run[] = [];
      for (let i = 1; i <= RUNS; i += 1) {
        runs.push(await runOnce());
        row(`${mode}, run ${i}`, runs.at(-1)!);
      }
      if (runs.length > 1)
        row(`${mode}, median`, {
          seconds: median(runs.map((r) => r.seconds)),
          peakMb: Math.max(...runs.map((r) => r.peakMb)),
          cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
          stolenSeconds: median(runs.map((r) => r.stolenSeconds)),
        });
    }
    console.log(
      [
        ...rows,
        '(median: the median wall, CPU and stolen time, and the highest peak RSS, of the runs)',
        'targets: ≥ 25,000 entries/s embedded, ≥ 15,000 over loopback; on PostgreSQL ≥ the SQLite server; CLI peak RSS under 200 MB',
      ].join('\n'),
    );
    for (const database of postgres) await database.drop();
  } finally {
    dir.cleanup();
  }
});
