import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

/*
 * `--chart` matched by code in every format whose export carries codes: one small file per
 * format, Checking (1000) debited and Sales (4000) credited, and three charts: one that also
 * has a "Sales" under another code (fine: the code tells them apart), one that names 4000
 * otherwise (a problem naming both), one that lists 4000 twice (a problem).
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-chart-code-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const write = (name: string, text: string, encoding: BufferEncoding = 'utf8') => {
  const file = path.join(dir, `${(count += 1)}-${name}`);
  writeFileSync(file, text, encoding);
  return file;
};

const FEC_COLUMNS =
  'JournalCode|JournalLib|EcritureNum|EcritureDate|CompteNum|CompteLib|CompAuxNum|CompAuxLib|PieceRef|PieceDate|EcritureLib|Debit|Credit|EcritureLet|DateLet|ValidDate|Montantdevise|Idevise';
const fecLine = (account: string, name: string, debit: string, credit: string) =>
  `VE|Ventes|1|20250103|${account}|${name}|||P-1|20250103|Vente|${debit}|${credit}|||20250103||`;
const NOMINAL_HEADER = ',Pr.,Mod.,Reference,Details,Doc Date,Post Date,Debit,,Credit,,Balance';
const nominalOpening = ',,,,Opening Balance as at :01/01/2025,,,0.00,,0.00,,0.00';

/** Each format's file, and whether its export types its accounts itself. */
const FORMATS: { format: string; file: () => string; typed: boolean }[] = [
  {
    format: 'books CSV (account_code, account_name)',
    typed: false,
    file: () =>
      write(
        'books.csv',
        'date,entry,account_code,account_name,debit,credit\n2025-01-03,1,1000,Checking,100.00,\n2025-01-03,1,4000,Sales,,100.00\n',
      ),
  },
  {
    format: 'QuickBooks Desktop report (codes with " · ")',
    typed: false,
    file: () =>
      write(
        'qb.csv',
        [
          'Blue Bottle Bakery',
          'General Ledger',
          'As of January 31, 2025',
          ',,Type,Date,Num,Adj,Name,Memo,Split,Debit,Credit,Balance',
          '1000 · Checking,,,,,,,,,,,0.00',
          ',,Deposit,01/15/2025,,,,Sales,4000 · Sales,100.00,,100.00',
          'Total 1000 · Checking,,,,,,,,,100.00,0.00,100.00',
          '4000 · Sales,,,,,,,,,,,0.00',
          ',,Deposit,01/15/2025,,,,Sales,1000 · Checking,,100.00,100.00',
          'Total 4000 · Sales,,,,,,,,,0.00,100.00,100.00',
          'TOTAL,,,,,,,,,100.00,100.00,0.00',
        ].join('\n') + '\n',
      ),
  },
  {
    format: 'Xero Account Transactions (codes in parentheses)',
    typed: false,
    file: () =>
      write(
        'xero.csv',
        [
          'Account Transactions',
          'Demo Company (AU)',
          'For the period 1 January 2025 to 31 January 2025',
          '',
          'Date,Source,Description,Reference,Debit,Credit,Running Balance,Gross,GST',
          'Checking (1000),,,,,,,,',
          '03 Jan 2025,Receive Money,Sales,RM-1,100.00,,100.00,100.00,0.00',
          'Total Checking (1000),,,,100.00,0.00,,,',
          'Sales (4000),,,,,,,,',
          '03 Jan 2025,Receive Money,Sales,RM-1,,100.00,-100.00,-100.00,0.00',
          'Total Sales (4000),,,,0.00,100.00,,,',
        ].join('\n') + '\n',
      ),
  },
  {
    format: 'nominal ledger (sections "Account: CODE - NAME")',
    typed: false,
    file: () =>
      write(
        'nominal.csv',
        [
          ',Acme Ltd',
          'Nominal Ledger Transaction History',
          'Report Period from 01/01/2025 to 31/12/2025',
          ',Account: 1000 - Checking',
          NOMINAL_HEADER,
          nominalOpening,
          ',JN,GL,J1,Sales,15/01/2025,15/01/2025,100.00,,0.00,,100.00',
          '',
          ',Account: 4000 - Sales',
          NOMINAL_HEADER,
          nominalOpening,
          ',JN,GL,J1,Sales,15/01/2025,15/01/2025,0.00,,100.00,,-100.00',
          'Page 1 of 1',
        ].join('\n') + '\n',
      ),
  },
  {
    format: 'IIF with account numbers (!ACCNT ACCNUM)',
    typed: true,
    file: () =>
      write(
        'books.iif',
        [
          ['!ACCNT', 'NAME', 'ACCNTTYPE', 'ACCNUM'],
          ['ACCNT', 'Checking', 'BANK', '1000'],
          ['ACCNT', 'Sales', 'INC', '4000'],
          ['!TRNS', 'TRNSID', 'TRNSTYPE', 'DATE', 'ACCNT', 'AMOUNT'],
          ['!SPL', 'SPLID', 'TRNSTYPE', 'DATE', 'ACCNT', 'AMOUNT'],
          ['!ENDTRNS'],
          ['TRNS', '', 'DEPOSIT', '01/03/2025', 'Checking', '100.00'],
          ['SPL', '', 'DEPOSIT', '01/03/2025', 'Sales', '-100.00'],
          ['ENDTRNS'],
        ]
          .map((row) => row.join('\t'))
          .join('\r\n') + '\r\n',
      ),
  },
  {
    format: 'FEC (CompteNum, CompteLib)',
    typed: true,
    file: () =>
      write(
        'fec.txt',
        [
          FEC_COLUMNS,
          fecLine('1000', 'Checking', '100,00', '0,00'),
          fecLine('4000', 'Sales', '0,00', '100,00'),
        ].join('\r\n') + '\r\n',
        'latin1',
      ),
  },
];

const chartOf = (rows: string) => write('chart.csv', `code,name,type\n${rows}`);

describe.each(FORMATS)('--chart by code: $format', ({ file, typed }) => {
  it('takes one name under two codes, each account typed by its own code', async () => {
    const chart = chartOf('1000,Checking,Cash\n4999,Sales,Expense\n4000,Sales,Income\n');
    const { entries, problems } = await readLedgerFile(file(), { chartFile: chart });
    expect(problems).toEqual([]);
    const lines = entries.flatMap((entry) => entry.lines);
    expect(lines.map((line) => line.accountCode).sort()).toEqual(['1000', '4000']);
    if (!typed) {
      expect(lines.map((line) => [line.accountCode, line.accountType]).sort()).toEqual([
        ['1000', 'Cash'],
        ['4000', 'Income'],
      ]);
    }
  });

  it("refuses a chart whose code names another account than the export's, naming both", async () => {
    const chart = chartOf('1000,Checking,Cash\n4000,Revenue,Income\n');
    const { problems } = await readLedgerFile(file(), { chartFile: chart });
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(`account 4000 is "Sales" in the file but "Revenue" in --chart ${chart}:3$`),
      ),
    ]);
  });

  it('refuses a chart with one code on two rows', async () => {
    const chart = chartOf('1000,Checking,Cash\n4000,Sales,Income\n4000,Other Sales,Income\n');
    const { problems } = await readLedgerFile(file(), { chartFile: chart });
    expect(problems).toEqual([`1: --chart ${chart}:4: the code 4000 is also on line 3`]);
  });
});

describe('--chart by name, where the export has no codes', () => {
  const uncoded = () =>
    write(
      'uncoded.csv',
      'date,entry,account,debit,credit\n2025-01-03,1,Checking,100.00,\n2025-01-03,1,Sales,,100.00\n',
    );

  it('gives a named account its code and type', async () => {
    const chart = chartOf('1000,Checking,Cash\n4000,Sales,Income\n');
    const { entries, problems } = await readLedgerFile(uncoded(), { chartFile: chart });
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => [l.accountCode, l.accountName, l.accountType])).toEqual([
      ['1000', 'Checking', 'Cash'],
      ['4000', 'Sales', 'Income'],
    ]);
  });

  it('refuses a name the chart has under two codes: nothing in the export chooses', async () => {
    const chart = chartOf('1000,Checking,Cash\n4000,Sales,Income\n4999,Sales,Expense\n');
    const { problems } = await readLedgerFile(uncoded(), { chartFile: chart });
    expect(problems).toEqual([
      `3: "Sales" is in --chart ${chart} under 2 codes (4000, 4999) and the file gives no code to choose by`,
    ]);
  });

  it('refuses a name twice when a row has no code to tell it apart', async () => {
    const chart = chartOf('1000,Checking,Cash\n,checking,Cash\n');
    const { problems } = await readLedgerFile(uncoded(), { chartFile: chart });
    expect(problems).toEqual([
      `1: --chart ${chart}:3: "checking" is also on line 2 (give each its code to keep both)`,
    ]);
  });
});
