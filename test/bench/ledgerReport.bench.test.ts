import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { it } from 'vitest';
import { timed } from '../helpers/benchProcesses.js';
import { temporaryHome } from '../helpers/cli.js';

const LINES = Number(process.env.BENCH_REPORT_LINES ?? 400_000);

/**
 * A year of a busy shop as QuickBooks Online's General Ledger report (CSV, a one-cell title
 * first): LINES / 2 transactions, each a row in Checking and one in Sales or Rent, the Amount
 * in each account's own sense, every section with its total.
 */
async function writeReport(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const transactions = LINES / 2;
  const money = (cents: number) =>
    `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
  const day = (i: number) => {
    const date = new Date(Date.UTC(2025, 0, 1) + Math.floor((i * 364) / transactions) * 86_400_000);
    return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/2025`;
  };
  const isRent = (i: number) => i % 10 === 0;
  const cents = (i: number) => 100 + ((i * 7919) % 89_901);
  const section = async (name: string, rows: (i: number) => string | undefined) => {
    await write(`${name},,,,,,,,\n`);
    let total = 0;
    for (let i = 1; i <= transactions; i += 1) {
      const row = rows(i);
      if (row === undefined) continue;
      const amount = Number(row.split(',').at(-2));
      total += Math.round(amount * 100);
      await write(`${row}\n`);
    }
    await write(`Total for ${name},,,,,,,${money(total)},\n`);
  };
  await write('Bench Shop\nGeneral Ledger\nJanuary - December 2025\n\n');
  await write(',Date,Transaction Type,Num,Name,Memo/Description,Split,Amount,Balance\n');
  await section('Checking', (i) =>
    isRent(i)
      ? `,${day(i)},Expense,${i},Landlord LLC,Rent,Rent,${money(-cents(i))},`
      : `,${day(i)},Deposit,${i},,Sales,Sales,${money(cents(i))},`,
  );
  await section('Rent', (i) =>
    isRent(i)
      ? `,${day(i)},Expense,${i},Landlord LLC,Rent,Checking,${money(cents(i))},`
      : undefined,
  );
  await section('Sales', (i) =>
    isRent(i) ? undefined : `,${day(i)},Deposit,${i},,Sales,Checking,${money(cents(i))},`,
  );
  await new Promise((resolve) => out.end(resolve));
}

/**
 * `je import --dry-run --format qb-report` of a generated General Ledger report of LINES lines
 * (400,000 unless BENCH_REPORT_LINES): the report read (its rows are held until it is read:
 * dates and senses are told over the whole), its totals checked, its rows paired, planned,
 * nothing sent. Prints seconds and peak RSS. Asserts nothing.
 */
it(`je import --dry-run: a ${LINES.toLocaleString('en-US')}-line QuickBooks General Ledger report`, async () => {
  const home = temporaryHome();
  try {
    const file = path.join(home.home, 'General Ledger.csv');
    await writeReport(file);
    console.log(`report: ${(statSync(file).size / 1e6).toFixed(1)} MB`);
    for (let round = 0; round < 2; round += 1) {
      const run = timed(
        ['je', 'import', file, '--format', 'qb-report', '--dry-run', '--create-missing-accounts'],
        home.env,
      );
      console.log(`${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB`);
    }
  } finally {
    home.cleanup();
  }
});
