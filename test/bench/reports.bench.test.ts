import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { copyBooks } from '../../src/platform/databases.js';
import { CLASS_OF_TYPE } from '../../src/platform/domain/accounts.js';
import { freshPostgresDatabase } from '../helpers/backend.js';
import { loadGeneratedBooks } from '../helpers/benchBooks.js';
import { toHledgerJournal } from '../helpers/generatedLedger.js';
import { BOOKS_BIN, spawnBooks, temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';

const TARGET_POSTINGS = 1_000_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeCommand(command: string, args: string[]): number {
  const started = performance.now();
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  return performance.now() - started;
}

/**
 * Reports on 1,000,000 postings over 3 years through `books serve` on a file database, cold
 * (the first request after a start) and warm (median of 5), beside Debian's ledger and hledger
 * on the same books (the cash ledger). Prints figures; asserts nothing about speed.
 */
it('reports on 1,000,000 postings over 3 years, beside ledger and hledger', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-reports-'));
  const home = temporaryHome();
  const database = path.join(dir, 'reports.sqlite');
  try {
    // 1. The books: ~285,000 generated entries (3.5 lines on average), in date order.
    const { ledger, entity, accounts } = await loadGeneratedBooks(
      database,
      {
        seed: 2024,
        count: 286_000,
        firstDay: '2023-01-01',
        days: 1095,
        accrualShare: 0.1,
      },
      { accrual: true, targetPostings: TARGET_POSTINGS },
    );
    const cashAccount = accounts.find((a) => a.type === 'Cash')!;

    // 2. Our reports through HTTP, on each backend: the same books copied into PostgreSQL.
    const postgres = await freshPostgresDatabase();
    const copyStarted = performance.now();
    await copyBooks(database, postgres.url);
    const copySeconds = (performance.now() - copyStarted) / 1000;
    const start = async (db: string) => {
      const server = spawnBooks(
        ['serve', '--db', db, '--port', '0', '--org-token', SERVE_TOKEN, '--rate-limit', '0'],
        home.env,
      );
      const banner = await server.waitForStderr('organization token');
      return { server, baseUrl: /listening on (http:\/\/\S+)/.exec(banner)![1]! };
    };
    const get = async (baseUrl: string, requestPath: string) => {
      const started = performance.now();
      const response = await fetch(
        `${baseUrl}/platform/v1/entities/${entity.id}/reports/${requestPath}`,
        {
          headers: { authorization: `Bearer ${SERVE_TOKEN}` },
        },
      );
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${requestPath}: ${response.status}`);
      return performance.now() - started;
    };
    const range = 'startDate=2023-01-01&endDate=2025-12-31';
    const cases: [string, string][] = [];
    for (const kind of ['profit-and-loss', 'balance-sheet', 'cash-flow', 'trial-balance']) {
      for (const groupBy of ['total', 'month'])
        cases.push([`${kind} by ${groupBy}`, `${kind}?${range}&groupBy=${groupBy}`]);
    }
    cases.push([
      'general-ledger, one account, one month',
      `general-ledger?startDate=2025-06-01&endDate=2025-06-30&accountId=${cashAccount.id}`,
    ]);
    cases.push([
      'general-ledger, every account, one month',
      'general-ledger?startDate=2025-06-01&endDate=2025-06-30',
    ]);
    const rows: string[] = [
      `copied into PostgreSQL (books db copy, checked) in ${copySeconds.toFixed(1)} s`,
      `${''.padEnd(42)} ${'SQLite'.padEnd(30)} PostgreSQL`,
    ];
    const measured = new Map<string, string[]>();
    try {
      for (const db of [database, postgres.url]) {
        for (const [label, requestPath] of cases) {
          const { server, baseUrl } = await start(db);
          const cold = await get(baseUrl, requestPath);
          const warmRuns: number[] = [];
          for (let run = 0; run < 9; run += 1) warmRuns.push(await get(baseUrl, requestPath));
          server.child.kill('SIGTERM');
          await server.result;
          measured.set(label, [
            ...(measured.get(label) ?? []),
            `cold ${cold.toFixed(0).padStart(5)} ms  warm p50 ${median(warmRuns).toFixed(0).padStart(5)} ms`,
          ]);
        }
      }
    } finally {
      await postgres.drop();
    }
    for (const [label] of cases) {
      const [sqlite, onPostgres] = measured.get(label)!;
      rows.push(`${label.padEnd(42)} ${sqlite!.padEnd(30)} ${onPostgres}`);
    }

    // 3. The peers, on the cash ledger written as a journal.
    const journal = path.join(dir, 'books.journal');
    writeFileSync(
      journal,
      toHledgerJournal(
        ledger,
        accounts.map((a) => a.code),
        (type) => CLASS_OF_TYPE[type],
      ),
    );
    const peers = [
      ['ledger  balance (trial balance)', 'ledger', ['-f', journal, 'balance']],
      [
        'ledger  -M register revenues expenses',
        'ledger',
        ['-f', journal, '-M', 'register', '^revenues', '^expenses'],
      ],
      ['hledger balance (trial balance)', 'hledger', ['-f', journal, 'balance']],
      ['hledger incomestatement -M', 'hledger', ['-f', journal, 'incomestatement', '-M']],
    ] as const;
    for (const [label, command, args] of peers) {
      if (spawnSync(command, ['--version'], { stdio: 'ignore' }).status !== 0) {
        rows.push(`${label.padEnd(42)} skipped: ${command} is not installed`);
        continue;
      }
      rows.push(
        `${label.padEnd(42)} ${timeCommand(command, [...args])
          .toFixed(0)
          .padStart(6)} ms`,
      );
    }

    // 4. The CLI on the embedded platform, on the same file as the user's local platform: the
    // whole command (start, open SQLite, one request, print), median of 10, beside node -e 0.
    const dataDir = path.join(home.home, '.local/share/books');
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(database, path.join(dataDir, 'platform.sqlite'));
    writeFileSync(path.join(dataDir, 'local-token'), `${SERVE_TOKEN}\n`, { mode: 0o600 });
    const timeBooks = (args: string[]) => {
      const times: number[] = [];
      for (let run = 0; run < 10; run += 1) {
        const started = performance.now();
        const result = spawnSync(process.execPath, args, { env: home.env, encoding: 'utf8' });
        if (result.status !== 0)
          throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const floor = timeBooks(['-e', '0']);
    const where = ['-w', 'Bench', '-e', 'Bench Co'];
    for (const [label, args, target] of [
      [
        'books report tb (embedded)',
        ['report', 'tb', '--from', '2023-01-01', '--to', '2025-12-31', ...where],
        150,
      ],
      ['books workspace list (embedded)', ['workspace', 'list'], 120],
    ] as const) {
      const ms = timeBooks([BOOKS_BIN, ...args]);
      rows.push(
        `${label.padEnd(42)} ${ms.toFixed(0).padStart(6)} ms   (node -e 0: ${floor.toFixed(0)} ms; target ≤ ${target} ms)`,
      );
    }
    console.log(rows.join('\n'));
    console.log(
      'targets: every summary report ≤ 300 ms through HTTP and ≥ 20× faster than ledger; one account for one month ≤ 300 ms; on PostgreSQL, the trial balance and P&L by month warm p50 ≤ 50 ms',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});
