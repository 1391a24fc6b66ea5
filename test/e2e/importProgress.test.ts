import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/**
 * What a CI log of a long import shows (the built binary, stderr to a file, as a CI job keeps
 * it): a line in every phase — checking, sending, reconciling, waiting for the rules — each
 * saying what it is doing and how far. BOOKS_PROGRESS_SECONDS=0 asks for a line at every step
 * instead of every ten seconds, so that phases of a second show theirs.
 */
describe('progress of every phase of an import, in a log', () => {
  const home = temporaryHome();
  let server: Awaited<ReturnType<typeof serveBooks>>;
  const where = ['-w', 'Logged', '-e', 'Logged Co'];

  /** A ledger of `entries` entries of two lines on June's days, its descriptions marked. */
  const ledger = (name: string, entries: number, mark: string) => {
    const rows = Array.from({ length: entries }, (_, i) => {
      const day = `2025-06-${String((i % 28) + 1).padStart(2, '0')}`;
      const cents = ((i * 7919) % 90_000) + 100;
      const amount = (cents / 100).toFixed(2);
      return `${mark}${i},${day},Checking,Cash,${amount},,${mark} sale ${i}\n${mark}${i},${day},Sales,Income,,${amount},${mark} sale ${i}\n`;
    });
    const file = path.join(home.home, name);
    writeFileSync(
      file,
      `entry,date,account,account_type,debit,credit,description\n${rows.join('')}`,
    );
    return file;
  };

  /** The binary with stderr written to a file, as a CI job keeps its log; the log's lines. */
  const logged = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const log = path.join(home.home, `log-${Math.random().toString(36).slice(2)}.txt`);
    const fd = openSync(log, 'w');
    try {
      const result = spawnSync(process.execPath, [BOOKS_BIN, ...args, ...where], {
        env: { ...server.env, ...env },
        stdio: ['ignore', 'pipe', fd],
        encoding: 'utf8',
      });
      return { code: result.status, lines: readFileSync(log, 'utf8').split('\n') };
    } finally {
      closeSync(fd);
    }
  };
  const every = { BOOKS_PROGRESS_SECONDS: '0' };
  const firstAt = (lines: string[], prefix: string) =>
    lines.findIndex((line) => line.startsWith(prefix));

  beforeAll(async () => {
    server = await serveBooks(home, ['--memory', '--rule-generation-delay', '1500']);
    for (const args of [
      ['workspace', 'create', 'Logged'],
      ['sandbox', 'entity', 'create', 'Logged Co', '--start-date', '2026-01-01', '-w', 'Logged'],
    ]) {
      const result = await runBooks(args, server.env);
      expect(result.code, result.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.cleanup();
  });

  it('a migration says each phase: checking, importing, then waiting for the rules', () => {
    const file = ledger('history.csv', 2_500, 'H');
    const { code, lines } = logged(
      ['migrate', 'run', file, '--create-missing-accounts', '--receipt', `${file}.receipt`],
      every,
    );
    expect(code, lines.join('\n')).toBe(0);
    const checking = lines.filter((line) => line.startsWith(`books: checking ${file}: `));
    expect(checking).toEqual([
      expect.stringMatching(/^books: checking .*: 1,000 entries so far, [\d,]+ entries\/s$/),
      expect.stringMatching(/: 2,000 entries so far, [\d,]+ entries\/s$/),
    ]);
    const importing = lines.filter((line) => line.startsWith('books: importing '));
    expect(importing).toHaveLength(25);
    expect(importing.at(-1)).toMatch(
      /^books: importing 2,500 of 2,500 entries \(100%\), [\d,]+ entries\/s$/,
    );
    const waiting = lines.filter((line) =>
      line.startsWith('books: finalizing: waiting for the transaction rules, '),
    );
    expect(waiting.length).toBeGreaterThan(0);
    for (const line of waiting) expect(line).toMatch(/, \d+ s so far$/);
    // In the order the phases run, each after what the phase before it said.
    expect(firstAt(lines, 'books: checking')).toBeLessThan(firstAt(lines, 'books: importing'));
    expect(firstAt(lines, 'books: importing')).toBeLessThan(
      lines.findIndex((line) => line.includes('finalizing the accounting migration')),
    );
    expect(
      lines.findIndex((line) => line.includes('finalizing the accounting migration')),
    ).toBeLessThan(firstAt(lines, 'books: finalizing: waiting'));
    expect(
      lines.findIndex((line) => line.startsWith('books: transaction rules seeded')),
    ).toBeGreaterThan(firstAt(lines, 'books: finalizing: waiting'));
  }, 60_000);

  it('an import into days that have entries is reconciled from their totals; one that finds its entries in already reads their ledger, and says how far', () => {
    const file = ledger('adjustments.csv', 600, 'A');
    const adjusted = logged(['je', 'import', file], every);
    expect(adjusted.code, adjusted.lines.join('\n')).toBe(0);
    expect(adjusted.lines.filter((line) => line.startsWith('books: reconciling'))).toEqual([]);
    expect(adjusted.lines).toContain(
      'books: reconciled 2 accounts with the entries this import posted, to the cent',
    );
    // The same file again from another folder: its batches are replayed, so the days did not
    // change, and the reconciliation reads their ledger for the entries the platform answered.
    const copy = path.join(home.home, 'copy-of-adjustments.csv');
    copyFileSync(file, copy);
    const { code, lines } = logged(['je', 'import', copy], every);
    expect(code, lines.join('\n')).toBe(0);
    const reconciling = lines.filter((line) => line.startsWith('books: reconciling: read '));
    // The days hold the migration's 5,000 postings and these 1,200: read a thousand at a time.
    expect(reconciling).toHaveLength(6);
    expect(reconciling[0]).toMatch(
      /^books: reconciling: read 1,000 postings so far, [\d,]+ postings\/s$/,
    );
    expect(reconciling.at(-1)).toMatch(/read 6,000 postings so far/);
    expect(firstAt(lines, 'books: reconciling')).toBeGreaterThan(
      firstAt(lines, 'books: importing'),
    );
    expect(firstAt(lines, 'books: reconciling')).toBeLessThan(
      firstAt(
        lines,
        'books: reconciled 2 accounts with the entries this import posted, to the cent',
      ),
    );
  }, 60_000);

  it("a bank's statement brought in says how many of its transactions are sent", async () => {
    const connected = await runBooks(
      ['sandbox', 'feed', 'connect', '--bank', 'Test Bank', '--account', 'Checking:bank', ...where],
      server.env,
    );
    expect(connected.code, connected.stderr).toBe(0);
    const statement = path.join(home.home, 'statement.csv');
    const rows = Array.from(
      { length: 2_500 },
      (_, i) =>
        `2026-02-${String((i % 28) + 1).padStart(2, '0')},CARD PURCHASE ${i},-${(1 + (i % 900) / 100).toFixed(2)}`,
    );
    writeFileSync(statement, `date,description,amount\n${rows.join('\n')}\n`);
    const { code, lines } = logged(['transactions', 'import', 'Checking', statement], every);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.filter((line) => line.startsWith('books: importing '))).toEqual([
      expect.stringMatching(
        /^books: importing 1,000 of 2,500 transactions \(40%\), [\d,]+ transactions\/s, about \d+ s left$/,
      ),
      expect.stringMatching(/^books: importing 2,000 of 2,500 transactions \(80%\), /),
      expect.stringMatching(
        /^books: importing 2,500 of 2,500 transactions \(100%\), [\d,]+ transactions\/s$/,
      ),
    ]);
    expect(lines.join('\n')).toContain('2500 imported, 0 already there');
  }, 60_000);

  it('--quiet shows no progress, says what it wrote all the same, and is not to be given with --progress plain', () => {
    const file = ledger('quiet.csv', 1_200, 'Q');
    const quiet = logged(['je', 'import', file, '--quiet'], every);
    expect(quiet.code, quiet.lines.join('\n')).toBe(0);
    expect(
      quiet.lines.filter((line) => /^books: (checking|importing|reconciling)/.test(line)),
    ).toEqual([]);
    expect(quiet.lines.join('\n')).toContain('1200 entries of quiet.csv are in the cash ledger');
    const both = logged(['je', 'import', file, '--quiet', '--progress', 'plain']);
    expect(both).toEqual({
      code: 2,
      lines: ['books: --quiet shows no progress and --progress plain asks for it: give one', ''],
    });
  }, 60_000);
});
