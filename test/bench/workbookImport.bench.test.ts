import { spawnSync } from 'node:child_process';
import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { it } from 'vitest';
import { timed } from '../helpers/benchProcesses.js';
import { BOOKS_BIN, chooseNewEntity, temporaryHome } from '../helpers/cli.js';

const LINES = Number(process.env.BENCH_WORKBOOK_LINES ?? 300_000);

/** The ledger's lines: entries of four, in date order over three years. */
function* ledgerRows(): Generator<[string, Date, string, string, number | null, number | null]> {
  const entries = LINES / 4;
  for (let i = 1; i <= entries; i += 1) {
    const day = new Date(
      Date.UTC(2023, 0, 1) + Math.floor((i * 1095) / (entries + 1)) * 86_400_000,
    );
    const a = 100 + ((i * 7919) % 90_000);
    const b = 100 + ((i * 104_729) % 40_000);
    const entry = `E${i}`;
    // Cents to a decimal by text, as a spreadsheet holds amounts.
    const amount = (cents: number) =>
      Number(`${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
    yield [entry, day, 'Sales', 'Income', null, amount(a)];
    yield [entry, day, 'Sales Tax', 'Other Current Liabilities', null, amount(b)];
    yield [entry, day, 'Checking', 'Cash', amount(a + b - 100), null];
    yield [entry, day, 'Card Fees', 'Operating Expenses', 1, null];
  }
}

const HEADER = ['entry', 'date', 'account', 'account_type', 'debit', 'credit'];

async function writeCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${HEADER.join(',')}\n`);
  for (const [entry, day, account, type, debit, credit] of ledgerRows()) {
    const line = `${entry},${day.toISOString().slice(0, 10)},${account},${type},${debit ?? ''},${credit ?? ''}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  await new Promise((resolve) => out.end(resolve));
}

/** The same ledger as a workbook: date cells, number cells, shared strings (as Excel keeps them). */
async function writeWorkbook(file: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: true,
  });
  const sheet = workbook.addWorksheet('General Ledger');
  sheet.addRow(HEADER).commit();
  for (const row of ledgerRows()) {
    const added = sheet.addRow(row);
    added.getCell(2).numFmt = 'yyyy-mm-dd';
    added.commit();
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * `je import --dry-run` (reading and checking the whole file, sending nothing) of one ledger as
 * CSV and as an .xlsx workbook: seconds and peak memory of each. Asserts nothing.
 */
it(`je import --dry-run: a ${LINES.toLocaleString('en-US')}-line ledger as CSV and as .xlsx`, async () => {
  const home = temporaryHome();
  try {
    for (const args of chooseNewEntity('Bench', 'Bench Co')) {
      const made = spawnSync(process.execPath, [BOOKS_BIN, ...args], {
        env: home.env,
        encoding: 'utf8',
      });
      if (made.status !== 0) throw new Error(made.stderr);
    }
    const csv = path.join(home.home, 'ledger.csv');
    const xlsx = path.join(home.home, 'ledger.xlsx');
    await writeCsv(csv);
    await writeWorkbook(xlsx);
    const mb = (file: string) => (statSync(file).size / 1e6).toFixed(1);
    console.log(`${LINES.toLocaleString('en-US')} lines: CSV ${mb(csv)} MB, xlsx ${mb(xlsx)} MB`);
    for (const file of [csv, xlsx, csv, xlsx]) {
      const run = timed(['je', 'import', file, '--dry-run', '--create-missing-accounts'], home.env);
      console.log(
        `${path.extname(file)}: ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    home.cleanup();
  }
});
