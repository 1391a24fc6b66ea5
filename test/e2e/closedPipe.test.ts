import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, temporaryHome } from '../helpers/cli.js';

/*
 * `books … | head -1`: the built binary's stdout read by a reader that closes the pipe after
 * its first line, for each kind of output. Git and gh end quietly; so must books: exit 0,
 * nothing on stderr, no further pages fetched.
 */

/** Runs the binary with its stdout read until the first line, then the pipe closed. */
function firstLineThenClose(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; line: string }> {
  const child = spawn(process.execPath, [BOOKS_BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let seen = '';
  let line: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    if (line !== undefined) return;
    seen += chunk.toString();
    const end = seen.indexOf('\n');
    if (end < 0) return;
    line = seen.slice(0, end);
    // As head does: the read end closed, whatever is still coming.
    child.stdout.destroy();
  });
  return new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stderr, line: line ?? seen })),
  );
}

describe('a closed pipe ends quietly', () => {
  const home = temporaryHome();
  beforeAll(async () => {
    const books = (...args: string[]) => runBooks(args, home.env);
    expect((await books('workspace', 'create', 'Pipes')).code).toBe(0);
    expect((await books('sandbox', 'entity', 'create', 'Busy', '-w', 'Pipes')).code).toBe(0);
    expect((await books('use', '-w', 'Pipes', '-e', 'Busy')).code).toBe(0);
    // Enough entries that every output is far more than a pipe holds (64 kB).
    const rows = ['entry,date,account,account_type,debit,credit,description'];
    for (let i = 0; i < 3000; i += 1) {
      const date = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      const amount = `${10 + (i % 50)}.25`;
      const text = `sale ${i}, a description long enough to fill the pipe quickly`;
      rows.push(`E${i},${date},Checking,Cash,${amount},,"${text}"`);
      rows.push(`E${i},${date},Sales,Income,,${amount},"${text}"`);
    }
    const file = path.join(home.home, 'busy.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const imported = await books('je', 'import', file, '--create-missing-accounts');
    expect(imported.code, imported.stderr).toBe(0);
  }, 120_000);
  afterAll(() => home.cleanup());

  it.each([
    ['a paged list, piped (tab-separated)', ['je', 'list', '--all']],
    ['a paged list as a table', ['je', 'list', '--all', '-o', 'table']],
    ['a paged list as CSV', ['je', 'list', '--all', '-o', 'csv']],
    ['a paged list as JSON', ['je', 'list', '--all', '-o', 'json']],
    ['the streamed general ledger', ['report', 'gl', '--from', '2026-01-01', '--to', '2026-12-31']],
    [
      'the streamed general ledger as CSV',
      ['report', 'gl', '--from', '2026-01-01', '--to', '2026-12-31', '-o', 'csv'],
    ],
    [
      'a report as CSV',
      [
        'report',
        'tb',
        '--from',
        '2026-01-01',
        '--to',
        '2026-12-31',
        '--by',
        'week',
        '-o',
        'csv',
        '--layout',
        'long',
      ],
    ],
    [
      'a report as a table',
      ['report', 'pl', '--from', '2026-01-01', '--to', '2026-12-31', '--by', 'week', '-o', 'table'],
    ],
  ])('%s: exit 0, nothing on stderr', async (_, args) => {
    const { code, signal, stderr, line } = await firstLineThenClose(args, home.env);
    expect(line.length).toBeGreaterThan(0);
    expect(stderr).toBe('');
    expect(signal).toBeNull();
    expect(code).toBe(0);
  });
});
