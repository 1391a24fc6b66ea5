import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { runBooks, temporaryHome, trialBalanceOf } from '../helpers/cli.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import {
  BOOKS_LEDGER,
  NOMINAL_TWO_SIDED,
  nominalLedgerFile,
  QB_DESKTOP,
  QBO_CURRENT_LAYOUT,
  QBO_CURRENT_LAYOUT_BALANCES,
  QBO_OLDER_LAYOUT,
  XERO_ACCOUNT_TRANSACTIONS,
} from '../helpers/reportFixtures.js';

/**
 * Every report-shaped fixture, and the real nominal ledger, saved as .xlsx by a real spreadsheet
 * program (LibreOffice, headless: dates become date cells, amounts number cells), reads to the
 * same entries as the CSV it was made from.
 */
const soffice = spawnSync('soffice', ['--version'], { encoding: 'utf8' });
const hasLibreOffice = soffice.status === 0;
if (!hasLibreOffice) {
  console.warn(
    'skipped: LibreOffice (soffice) is not installed; the workbooks of these tests are written by it (Debian: apt-get install libreoffice-calc-nogui, as .ci/run does)',
  );
}

const REALWORLD = path.resolve(import.meta.dirname, '../../../shared/realworld/files');
const NIBE = path.join(REALWORLD, 'nominal_ledger_transaction_history_nibe_2018_excerpt.csv');

/** CSV fixtures by file name; `dayFirst` ones are converted in a UK locale (DD/MM/YYYY). */
const FIXTURES: { name: string; lines: readonly string[]; dayFirst?: boolean }[] = [
  { name: 'qbo-current', lines: QBO_CURRENT_LAYOUT },
  { name: 'qbo-older', lines: QBO_OLDER_LAYOUT },
  { name: 'qb-desktop', lines: QB_DESKTOP },
  { name: 'xero', lines: XERO_ACCOUNT_TRANSACTIONS, dayFirst: true },
  { name: 'nominal', lines: nominalLedgerFile(NOMINAL_TWO_SIDED), dayFirst: true },
  { name: 'books', lines: BOOKS_LEDGER },
];

/**
 * LibreOffice's CSV import: comma, double quote, UTF-8, from line 1, the locale given (1033
 * en-US, 2057 en-GB), quoted fields as text, special numbers (dates, currency) detected.
 */
function convert(directory: string, files: string[], locale: number) {
  if (files.length === 0) return;
  const converted = spawnSync(
    'soffice',
    [
      `-env:UserInstallation=file://${path.join(directory, 'profile')}`,
      '--headless',
      `--infilter=CSV:44,34,76,1,,${locale},true,true`,
      '--convert-to',
      'xlsx',
      '--outdir',
      directory,
      ...files,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect(converted.status, converted.stderr).toBe(0);
}

describe.skipIf(!hasLibreOffice)('.xlsx workbooks read as the sheet saved as CSV', () => {
  // Made in beforeAll: a suite filtered out runs no hooks, and would leave it behind.
  let directory = '';
  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });
  const csvOf = (name: string) => path.join(directory, `${name}.csv`);
  const xlsxOf = (name: string) => path.join(directory, `${name}.xlsx`);

  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'books-xlsx-'));
    for (const { name, lines } of FIXTURES) writeFileSync(csvOf(name), `${lines.join('\n')}\n`);
    const realworld = existsSync(NIBE);
    convert(
      directory,
      FIXTURES.filter((f) => !f.dayFirst).map((f) => csvOf(f.name)),
      1033,
    );
    convert(
      directory,
      [
        ...FIXTURES.filter((f) => f.dayFirst).map((f) => csvOf(f.name)),
        ...(realworld ? [NIBE] : []),
      ],
      2057,
    );
  }, 180_000);

  it.each(FIXTURES.map((f) => f.name))('%s: the same entries as its CSV', async (name) => {
    const csv = await readLedgerFile(csvOf(name));
    const xlsx = await readLedgerFile(xlsxOf(name));
    expect(csv.problems).toEqual([]);
    expect(xlsx.problems).toEqual([]);
    expect(csv.entries.length).toBeGreaterThan(0);
    expect(xlsx.entries).toEqual(csv.entries);
    expect(xlsx.notes[0]).toMatch(/^read sheet ".+" of the workbook \(\d+ rows\)/);
  });

  it.skipIf(!existsSync(NIBE))(
    'the real nibe nominal ledger: the same entries as its CSV',
    async () => {
      // An excerpt: rows whose other sides it cut go against an offset account.
      const options = { offsetAccount: 'Report Offset' };
      const csv = await readLedgerFile(NIBE, options);
      const xlsx = await readLedgerFile(
        path.join(directory, `${path.basename(NIBE, '.csv')}.xlsx`),
        options,
      );
      expect(csv.problems).toEqual([]);
      expect(xlsx.problems).toEqual([]);
      expect(xlsx.entries).toEqual(csv.entries);
    },
  );
});

/**
 * Through the built `books`, as a user at a terminal: a workbook imports, a sheet is chosen by
 * name, and a workbook that cannot be read is refused saying why.
 */
describe('je import of a workbook', () => {
  let home: ReturnType<typeof temporaryHome>;
  afterAll(() => home?.cleanup());
  const books = (...args: string[]) => runBooks(args, home.env);
  const where = (entity: string) => ['-w', 'Workbooks', '-e', entity];
  beforeAll(async () => {
    home = temporaryHome();
    expect((await books('workspace', 'create', 'Workbooks', '--timezone', 'UTC')).code).toBe(0);
  });
  const newEntity = async (entity: string) => {
    const made = await books('sandbox', 'entity', 'create', entity, '-w', 'Workbooks');
    expect(made.code, made.stderr).toBe(0);
    return where(entity);
  };

  /**
   * Two sheets, the ledger second: typed cells as a spreadsheet keeps them (dates, numbers
   * shown with grouping, a formula whose result carries float noise, rich text).
   */
  async function twoSheetWorkbook(file: string) {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Exported for the year-end file']);
    const ledger = workbook.addWorksheet('General Ledger');
    ledger.addRow(['entry', 'date', 'account', 'debit', 'credit', 'memo', 'account_type']);
    const day = (d: string) => new Date(`${d}T00:00:00Z`);
    const drift: ExcelJS.CellFormulaValue = { formula: '0.1+0.2', result: 0.1 + 0.2 };
    const rows: [string, string, string, number | ExcelJS.CellFormulaValue | null, unknown][] = [
      ['J-1', '2026-01-05', 'Checking', 1200, null],
      ['J-1', '2026-01-05', 'Sales', null, 1200],
      ['J-2', '2026-01-20', 'Bank fees', drift, null],
      ['J-2', '2026-01-20', 'Checking', null, 0.3],
    ];
    const types: Record<string, string> = {
      Checking: 'asset',
      Sales: 'income',
      'Bank fees': 'expense',
    };
    for (const [entry, date, account, debit, credit] of rows) {
      const row = ledger.addRow([entry, day(date), account, debit, credit, null, types[account]]);
      row.getCell(2).numFmt = 'dd/mm/yyyy';
      row.getCell(4).numFmt = '#,##0.00';
      row.getCell(5).numFmt = '#,##0.00';
      row.getCell(6).value = {
        richText: [{ text: 'January ' }, { font: { bold: true }, text: 'sales' }],
      };
    }
    await workbook.xlsx.writeFile(file);
  }

  it.skipIf(!hasLibreOffice)(
    'imports a LibreOffice workbook of the QuickBooks Online ledger to its trial balance',
    async () => {
      const directory = mkdtempSync(path.join(os.tmpdir(), 'books-xlsx-'));
      try {
        const csv = path.join(directory, 'General Ledger.csv');
        writeFileSync(csv, `${QBO_CURRENT_LAYOUT.join('\n')}\n`);
        convert(directory, [csv], 1033);
        const entity = await newEntity('Blue Heron');
        const imported = await books(
          'je',
          'import',
          path.join(directory, 'General Ledger.xlsx'),
          '--create-missing-accounts',
          '--code-ranges',
          '1=asset,2=liability,3=equity,4=income,6=expense',
          ...entity,
        );
        expect(imported.code, imported.stderr).toBe(0);
        expect(imported.stderr).toContain('read sheet "General Ledger" of the workbook');
        const expected = new Map(
          Object.entries(QBO_CURRENT_LAYOUT_BALANCES).filter(([, cents]) => cents !== 0),
        );
        expect(await trialBalanceOf(home.env, entity)).toEqual(expected);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  );

  it('reads the sheet --sheet names; the first sheet without it; says which sheets there are', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'books-xlsx-'));
    try {
      const file = path.join(directory, 'year-end.xlsx');
      await twoSheetWorkbook(file);
      const entity = await newEntity('Two Sheets');

      const first = await books('je', 'import', file, '--dry-run', ...entity);
      expect(first.code).toBe(3);
      expect(first.stderr).toContain('read sheet "Notes" of the workbook');

      const missing = await books('je', 'import', file, '--sheet', 'Ledger', ...entity);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain(
        'the workbook has no sheet "Ledger": its sheets are "Notes", "General Ledger"',
      );
      // exceljs keeps a sheet that comes before the shared strings in a temporary file, and
      // removed it only after the command had exited: every such refusal left one behind.
      const scratch = path.join(directory, 'tmp');
      mkdirSync(scratch);
      const refused = await runBooks(['je', 'import', file, '--sheet', 'Ledger', ...entity], {
        ...home.env,
        TMPDIR: scratch,
      });
      expect(refused.code).toBe(3);
      expect(readdirSync(scratch)).toEqual([]);

      const imported = await books(
        'je',
        'import',
        file,
        '--sheet',
        'general ledger',
        '--create-missing-accounts',
        ...entity,
      );
      expect(imported.code, imported.stderr).toBe(0);
      expect(await trialBalanceOf(home.env, entity)).toEqual(
        new Map([
          ['Checking', 119_970],
          ['Sales', -120_000],
          ['Bank fees', 30],
        ]),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses what it cannot read as a workbook, saying why, with no stack trace', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'books-xlsx-'));
    try {
      const entity = await newEntity('Refusals');
      const old = path.join(directory, 'ledger.xls');
      writeFileSync(old, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
      const csv = path.join(directory, 'ledger.csv');
      writeFileSync(csv, `${BOOKS_LEDGER.join('\n')}\n`);
      const broken = path.join(directory, 'broken.xlsx');
      writeFileSync(broken, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 7)]));
      const cases: [string[], string][] = [
        [[old], 'an Excel 97-2003 workbook (.xls): books reads .xlsx workbooks and CSV'],
        [
          [csv, '--sheet', 'Ledger'],
          '--sheet names a sheet of an .xlsx workbook, and this file is not one',
        ],
        [[broken], 'not a workbook books can read (.xlsx, Office Open XML)'],
      ];
      for (const [args, message] of cases) {
        const refused = await books('je', 'import', ...args, '--dry-run', ...entity);
        expect(refused.code, refused.stderr).toBe(3);
        expect(refused.stderr).toContain(message);
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      }
      const iif = path.join(directory, 'iif.xlsx');
      await twoSheetWorkbook(iif);
      const wrongFormat = await books(
        'je',
        'import',
        iif,
        '--format',
        'iif',
        '--dry-run',
        ...entity,
      );
      expect(wrongFormat.code).toBe(3);
      expect(wrongFormat.stderr).toContain(
        'sheet "Notes" reads as iif: a workbook is read as a books CSV, or as a Wave Account Transactions, bexio journal or account ledger, Infoniqa ONE 50 journal, nominal ledger report, QuickBooks Desktop Transaction Detail by Date report, QuickBooks General Ledger report, Xero Account Transactions report; export the iif file as it comes',
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
