import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { it } from 'vitest';
import { BOOKS_BIN, chooseNewEntity, runBooks, temporaryHome } from '../helpers/cli.js';
import { writeSalesLedger } from '../helpers/salesLedger.js';

/**
 * `je import` with stderr read line by line as a CI log would keep it, each line stamped with
 * the seconds since the start: when sending began (the accounts made, or the first progress
 * line of it), ended (the entries said to be in) and the reconciliation ended.
 */
async function phases(args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [BOOKS_BIN, ...args], {
    env: { ...env, BOOKS_PROGRESS_SECONDS: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const at: Record<string, number> = {};
  const seconds = () => (performance.now() - started) / 1000;
  for await (const line of createInterface({ input: child.stderr })) {
    if (line.startsWith('books: importing ')) at.sending ??= seconds();
    if (/entries of .* are in the/.test(line)) at.sent = seconds();
    if (line.startsWith('books: reconciled ')) at.reconciled = seconds();
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || at.reconciled === undefined)
    throw new Error(`books ${args.join(' ')}: ${code}`);
  return {
    checking: at.sending!,
    sending: at.sent! - at.sending!,
    reconciling: at.reconciled - at.sent!,
  };
}

/**
 * The phases of a big import into the embedded platform: 175,000 entries (700,000 postings)
 * into new books, then 10,000 more into the same days, each reconciled from the days' totals
 * before and after; then those 10,000 again from a copy of their file, whose batches the
 * platform replays, so that the reconciliation reads the days' general ledger for its own
 * postings (the slow path, also taken when another writer posts on those days meanwhile). Prints the seconds of each phase and reconciling against sending (the target: at
 * most a third). Asserts nothing.
 */
it('je import: checking, sending and reconciling, 700,000 postings', async () => {
  const home = temporaryHome();
  try {
    for (const args of chooseNewEntity('Phases', 'Phases Co')) {
      const result = await runBooks(args, home.env);
      if (result.code !== 0) throw new Error(result.stderr);
    }
    const big = path.join(home.home, 'big.csv');
    const more = path.join(home.home, 'more.csv');
    await writeSalesLedger(big, 175_000, { entry: 'B', description: 'B ORDER' });
    await writeSalesLedger(more, 10_000, { entry: 'M', description: 'M ORDER' });
    const first = await phases(['je', 'import', big, '--create-missing-accounts'], home.env);
    const second = await phases(['je', 'import', more], home.env);
    const copy = path.join(home.home, 'copy-of-more.csv');
    copyFileSync(more, copy);
    const third = await phases(['je', 'import', copy], home.env);
    const row = (name: string, p: typeof first) =>
      `${name.padEnd(50)} ${p.checking.toFixed(1).padStart(6)} s ${p.sending.toFixed(1).padStart(6)} s ${p.reconciling.toFixed(1).padStart(6)} s   ${(p.reconciling / p.sending).toFixed(2)}`;
    console.log(
      [
        `${''.padEnd(50)} checking  sending  reconciling  reconciling/sending`,
        row('175,000 entries into new books', first),
        row('10,000 more into the same days', second),
        row('the 10,000 again, a copy (replayed: ledger read)', third),
        'target: reconciling at most 1/3 of sending',
      ].join('\n'),
    );
  } finally {
    home.cleanup();
  }
});
