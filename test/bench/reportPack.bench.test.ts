import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { loadGeneratedBooks } from '../helpers/benchBooks.js';
import { timed } from '../helpers/benchProcesses.js';
import { serveBooks, temporaryHome } from '../helpers/cli.js';

const TARGET_POSTINGS = 1_000_000;
const TARGET_RSS_MB = 300;

/**
 * A month-end pack of big books: `books report pack --general-ledger` over a year of about
 * 1,000,000 postings, through `books serve` on a file database, written as the workbook, as the
 * PDF, and as both: the time, the files' sizes and the CLI's peak resident memory. Target
 * (printed, not asserted): peak RSS under 300 MB, the general ledger streamed into sheet and
 * pages.
 */
it('report pack --general-ledger over 1,000,000 postings', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-pack-'));
  const home = temporaryHome();
  const database = path.join(dir, 'books.sqlite');
  try {
    await loadGeneratedBooks(
      database,
      {
        seed: 32,
        count: 286_000,
        firstDay: '2025-01-01',
        days: 365,
        accrualShare: 0,
      },
      { accrual: false, targetPostings: TARGET_POSTINGS },
    );
    const server = await serveBooks(home, ['--db', database, '--rate-limit', '0']);
    try {
      for (const format of ['xlsx', 'pdf', 'both']) {
        const out = path.join(dir, format);
        const run = timed(
          [
            'report',
            'pack',
            '-w',
            'Bench',
            '-e',
            'Bench Co',
            '--period',
            '2025',
            '--general-ledger',
            '--format',
            format,
            '--out',
            out,
          ],
          server.env,
        );
        const files = readdirSync(out)
          .map((name) => `${name} ${(statSync(path.join(out, name)).size / 1e6).toFixed(0)} MB`)
          .join(', ');
        console.log(
          `report pack --format ${format.padEnd(4)} ${run.seconds.toFixed(1).padStart(6)} s  peak RSS ${run.peakRssMb.toFixed(0)} MB (target < ${TARGET_RSS_MB})  ${files}`,
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}, 1_800_000);
