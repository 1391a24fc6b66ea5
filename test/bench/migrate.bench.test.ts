import { spawnSync } from 'node:child_process';
import { createWriteStream, statSync } from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { BOOKS_BIN, spawnBooks, temporaryHome } from '../helpers/cli.js';

const LINES = 1_000_000;

/** ~250,000 entries of four lines, in date order over three years. */
async function writeLedger(file: string): Promise<number> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write('entry,date,account,account_type,debit,credit,description\n');
  const entries = LINES / 4;
  for (let i = 1; i <= entries; i += 1) {
    const day = new Date(Date.UTC(2023, 0, 1) + Math.floor((i * 1095) / (entries + 1)) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const a = (100 + ((i * 7919) % 90_000)) / 100;
    const b = (100 + ((i * 104_729) % 40_000)) / 100;
    const total = ((Math.round(a * 100) + Math.round(b * 100)) / 100).toFixed(2);
    await write(
      `E${i},${day},Sales,Income,,${a.toFixed(2)},SQ *ORDER ${i}\n` +
        `E${i},${day},Sales Tax,Other Current Liabilities,,${b.toFixed(2)},SQ *ORDER ${i}\n` +
        `E${i},${day},Checking,Cash,${(Number(total) - 1).toFixed(2)},,SQ *ORDER ${i}\n` +
        `E${i},${day},Card Fees,Operating Expenses,1.00,,SQ *ORDER ${i}\n`,
    );
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return entries;
}

/** Runs `books` under /usr/bin/time: wall seconds and peak RSS in MB. */
function timed(args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BOOKS_BIN, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0)
    throw new Error(`books ${args.join(' ')}: ${result.stderr.slice(-2000)}`);
  const peakKb = Number(result.stderr.trim().split('\n').pop());
  return { seconds, peakMb: peakKb / 1024 };
}

/** Migrates 1,000,000 CSV lines into the embedded platform and over loopback. Prints; asserts nothing. */
it('migrate run: a 1,000,000-line CSV, embedded and over loopback', async () => {
  const home = temporaryHome();
  try {
    const file = path.join(home.home, 'ledger.csv');
    const entries = await writeLedger(file);
    console.log(
      `wrote ${LINES.toLocaleString('en-US')} lines (${entries.toLocaleString('en-US')} entries, ${(statSync(file).size / 1e6).toFixed(0)} MB)`,
    );
    const setup = (env: NodeJS.ProcessEnv) => {
      for (const args of [
        ['workspace', 'create', 'Bench'],
        ['sandbox', 'entity', 'create', 'Bench Co', '--start-date', '2026-01-01', '-w', 'Bench'],
        ['use', '-w', 'Bench', '-e', 'Bench Co'],
      ]) {
        const result = spawnSync(process.execPath, [BOOKS_BIN, ...args], { env, encoding: 'utf8' });
        if (result.status !== 0) throw new Error(result.stderr);
      }
    };
    const rows: string[] = [];
    const report = (label: string, { seconds, peakMb }: { seconds: number; peakMb: number }) =>
      rows.push(
        `${label.padEnd(26)} ${Math.round(entries / seconds)
          .toLocaleString('en-US')
          .padStart(
            7,
          )} entries/s   wall ${seconds.toFixed(1)} s   CLI peak RSS ${peakMb.toFixed(0)} MB`,
      );

    setup(home.env);
    report(
      'embedded',
      timed(['migrate', 'run', file, '--create-missing-accounts', '--no-wait'], home.env),
    );

    const served = temporaryHome();
    const server = spawnBooks(
      ['serve', '--memory', '--port', '0', '--org-token', 'bench', '--rate-limit', '0'],
      served.env,
    );
    try {
      const baseUrl = /listening on (http:\/\/\S+)/.exec(
        await server.waitForStderr('organization token'),
      )![1]!;
      const env = { ...served.env, BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: 'bench' };
      setup(env);
      report(
        'books serve over loopback',
        timed(['migrate', 'run', file, '--create-missing-accounts', '--no-wait'], env),
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.result;
      served.cleanup();
    }
    console.log(
      [
        ...rows,
        'targets: ≥ 25,000 entries/s embedded, ≥ 15,000 over loopback; CLI peak RSS under 200 MB',
      ].join('\n'),
    );
  } finally {
    home.cleanup();
  }
});
