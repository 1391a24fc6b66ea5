import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { loadGeneratedBooks } from '../helpers/benchBooks.js';
import { benchFigures, cpuSecondsOf, timed } from '../helpers/benchProcesses.js';
import { serveBooks, temporaryHome } from '../helpers/cli.js';

/** Entries of a generated year: about 3.4 lines each, so about a million postings. */
const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 290_000);

const FORMATS: [string, string[]][] = [
  ['fec', ['--org-number', '732829320']],
  ['saft', ['--org-number', '999999999', '--contact', 'Kari Nordmann', '--phone', '22000000']],
  ['xaf', []],
  ['sie', []],
  ['datev', ['--datev-consultant', '29098', '--datev-client', '55003']],
];

/**
 * `books export --format fec|saft|xaf|sie|datev` of a year of about a million postings through
 * `books serve` on a SQLite file (its rate limit off, and the CLI's `--rate 0`, so the figures
 * are the export's own): each format's seconds, the CLI's peak memory (the target: at most 250
 * MB, the postings never all held), the file's size, and the server's CPU. Prints figures;
 * asserts nothing about speed.
 */
it(`books export --format …: a year of ${ENTRIES.toLocaleString('en-US')} entries`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-audit-'));
  const home = temporaryHome();
  const database = path.join(dir, 'books.sqlite');
  const { say, printAll } = benchFigures();
  try {
    const { entity } = await loadGeneratedBooks(
      database,
      {
        seed: 43,
        count: ENTRIES,
        firstDay: '2025-01-01',
        days: 365,
        accrualShare: 0,
      },
      { accrual: false, say },
    );
    const server = await serveBooks(home, ['--db', database, '--rate-limit', '0'], {
      asGiven: true,
    });
    try {
      for (const [format, flags] of FORMATS) {
        const directory = path.join(dir, format);
        const cpu = cpuSecondsOf(server.pid);
        const run = timed(
          [
            'export',
            directory,
            '--format',
            format,
            '-e',
            entity.id,
            '--from',
            '2025-01-01',
            '--to',
            '2025-12-31',
            '--rate',
            '0',
            ...flags,
            '--json',
          ],
          server.env,
        );
        const serveCpu = cpuSecondsOf(server.pid) - cpu;
        const outcome = JSON.parse(run.stdout);
        const size = statSync(path.join(directory, readdirSync(directory)[0]!)).size;
        say(
          `${format.padEnd(5)}: ${outcome.lines.toLocaleString('en-US')} lines in ${run.seconds.toFixed(1)} s (${Math.round(outcome.lines / run.seconds).toLocaleString('en-US')} lines/s), CLI peak ${run.peakRssMb.toFixed(0)} MB (target ≤ 250), ${(size / 1_048_576).toFixed(0)} MB written, serve CPU ${serveCpu.toFixed(1)} s`,
        );
        rmSync(directory, { recursive: true, force: true });
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
  printAll();
}, 1_800_000);
