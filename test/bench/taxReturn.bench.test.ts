import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { booksPaths } from '../../src/cli/config/paths.js';
import { taxReturnLines } from '../../src/platform/http/routes/tax.js';
import { createPlatform } from '../../src/platform/index.js';
import { BOOKS_BIN, SERVE_TOKEN, spawnBooks, temporaryHome } from '../helpers/cli.js';

const TARGET_POSTINGS = 1_000_000;

/**
 * The VAT return of big books (issue 55, part 8): an entity registered in the UK with 1,000,000
 * coded postings over a year (sales at 20 %, 5 % and zero, purchases at 20 %, each entry its
 * bank line, its net and its VAT), written through the engine into a file database; then the
 * quarter's and the year's return, with and without --detail, through the built binary on the
 * embedded platform and against `books serve`, and in-process through the engine (the same work without the CLI, HTTP and
 * JSON). Prints the seconds and the memory each takes; asserts nothing about speed.
 */
it('the VAT return of 1,000,000 coded postings, with --detail', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-tax-'));
  const home = temporaryHome();
  const database = path.join(dir, 'tax.sqlite');
  try {
    const started = performance.now();
    const platform = await createPlatform({
      database,
      orgToken: SERVE_TOKEN,
      rateLimitPerSecond: 0,
    });
    const org = platform.defaultOrganizationId;
    const { engine } = platform;
    const workspace = await engine.workspaces.create(org, { name: 'Bench', timezone: 'UTC' });
    const entity = await engine.entities.create(org, workspace.id, { name: 'Bench Co' });
    const [bank, sales, costs, output, input] = await engine.accounts.bulkCreate(org, entity.id, [
      { name: 'Bank', type: 'Cash' },
      { name: 'Sales', type: 'Income' },
      { name: 'Costs', type: 'Operating Expenses' },
      { name: 'VAT on Sales', type: 'Other Current Liabilities' },
      { name: 'VAT on Purchases', type: 'Other Current Assets' },
    ]);
    await engine.tax.setUp(org, entity.id, {
      country: 'GB',
      outputAccountId: output!.id,
      inputAccountId: input!.id,
    });
    const codes = [
      ['S', 20],
      ['R', 5],
      ['Z', 0],
      ['SP', 20],
    ] as const;
    const entries = Math.ceil(TARGET_POSTINGS / 3);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let start = 0; start < entries; start += 100) {
      const bodies = [];
      for (let i = start; i < Math.min(start + 100, entries); i += 1) {
        const [code, rate] = codes[i % codes.length]!;
        const netCents = 100 + Math.floor(random() * 100_000);
        const vatCents = Math.round((netCents * rate) / 100);
        const day = new Date(Date.UTC(2026, 0, 1 + Math.floor((i / entries) * 365)))
          .toISOString()
          .slice(0, 10);
        const amount = (cents: number) => cents / 100;
        const purchase = code === 'SP';
        const lines = [
          {
            accountId: bank!.id,
            ...(purchase
              ? { creditAmount: amount(netCents + vatCents) }
              : { debitAmount: amount(netCents + vatCents) }),
          },
          {
            accountId: purchase ? costs!.id : sales!.id,
            taxCode: code,
            ...(purchase ? { debitAmount: amount(netCents) } : { creditAmount: amount(netCents) }),
          },
          ...(vatCents > 0
            ? [
                {
                  accountId: purchase ? input!.id : output!.id,
                  taxCode: code,
                  ...(purchase
                    ? { debitAmount: amount(vatCents) }
                    : { creditAmount: amount(vatCents) }),
                },
              ]
            : []),
        ];
        bodies.push({ date: day, lines, memo: `Entry ${i}` });
      }
      await engine.journalEntries.bulkCreate(org, entity.id, bodies);
    }
    console.log(
      `${entries.toLocaleString('en-US')} entries (about ${TARGET_POSTINGS.toLocaleString('en-US')} coded postings) written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    // In-process: the engine's return, without the CLI or HTTP; with its postings, as the lines
    // `--detail` reads are written (the floor of what the command does).
    for (const [label, startDate, endDate] of [
      ['the third quarter', '2026-07-01', '2026-09-30'],
      ['the year', '2026-01-01', '2026-12-31'],
    ] as const) {
      const at = performance.now();
      const taxReturn = await engine.tax.taxReturn(org, entity.id, { startDate, endDate });
      console.log(
        `engine, ${label}: ${((performance.now() - at) / 1000).toFixed(2)} s; ties ${taxReturn.ties}, net ${taxReturn.net}`,
      );
    }
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = 0;
    const at = performance.now();
    const detail = await engine.tax.taxReturnDetail(org, entity.id, {
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    const figured = performance.now();
    let written = 0;
    for await (const piece of taxReturnLines(detail)) {
      written += piece.length;
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    console.log(
      `engine, the year with every posting behind each box, as lines: ${((performance.now() - at) / 1000).toFixed(2)} s (the figures ${((figured - at) / 1000).toFixed(2)} s), ${(written / 2 ** 20).toFixed(0)} MB written, heap +${((heapPeak - heapBefore) / 2 ** 20).toFixed(0)} MB at most`,
    );
    await platform.close();

    // Through the built binary, as a bookkeeper runs it: on the embedded platform (the default:
    // the engine in the command's own process), then against books serve.
    const where = ['-w', 'Bench', '-e', 'Bench Co'];
    const returns = (env: NodeJS.ProcessEnv, where_: string) => {
      for (const [label, args] of [
        ['the third quarter', ['--period', '2026-Q3']],
        ['the year', ['--period', '2026']],
        ['the year --detail, as CSV', ['--period', '2026', '--detail', '-o', 'csv']],
      ] as const) {
        const at = performance.now();
        // GNU time's %M: the command's peak resident memory, in kB.
        const result = spawnSync(
          '/usr/bin/time',
          ['-f', 'peak %M', process.execPath, BOOKS_BIN, 'tax', 'return', ...args, ...where],
          { env, encoding: 'utf8', maxBuffer: 1 << 30 },
        );
        const seconds = (performance.now() - at) / 1000;
        if (result.status !== 0) throw new Error(result.stderr);
        const peak = Number(/peak (\d+)/.exec(result.stderr)![1]) / 1024;
        console.log(
          `books tax return ${where_}, ${label}: ${seconds.toFixed(2)} s, the command's peak ${peak.toFixed(0)} MB (${(result.stdout.length / 2 ** 20).toFixed(1)} MB of output)`,
        );
      }
    };
    const { dataDir, platformDatabase } = booksPaths(home.env);
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(database, platformDatabase);
    returns(home.env, 'embedded');
    rmSync(platformDatabase);

    const server = spawnBooks(
      ['serve', '--db', database, '--port', '0', '--org-token', SERVE_TOKEN, '--rate-limit', '0'],
      home.env,
    );
    const banner = await server.waitForStderr('organization token');
    const baseUrl = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
    try {
      returns(
        { ...home.env, BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: SERVE_TOKEN },
        'against books serve',
      );
      const serverPeak = /VmHWM:\s+(\d+)/.exec(
        readFileSync(`/proc/${server.child.pid}/status`, 'utf8'),
      );
      if (serverPeak)
        console.log(`books serve's peak: ${(Number(serverPeak[1]) / 1024).toFixed(0)} MB`);
    } finally {
      server.child.kill('SIGTERM');
      await server.result;
    }
  } finally {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});
