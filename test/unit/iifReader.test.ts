import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import { chartFiller, codeRangeFiller, readChartFile } from '../../src/formats/chart/chartFile.js';
import { parseCodeRanges } from '../../src/formats/options.js';
import { parseIifDate } from '../../src/formats/iif/reader.js';
import { formatOf } from '../../src/formats/reader.js';

/*
 * Fixtures written from the IIF Import Kit's description of the format (QuickBooks Desktop):
 * tab-separated; `!KIND` header rows name the columns of the `KIND` rows after them; a
 * transaction is TRNS, its SPL rows, ENDTRNS; AMOUNT positive is a debit.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-iif-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fileOf = (rows: string[][], name = `f${(count += 1)}.iif`) => {
  const file = path.join(dir, name);
  writeFileSync(file, rows.map((row) => row.join('\t')).join('\r\n') + '\r\n');
  return file;
};

const HEADERS = [
  ['!TRNS', 'TRNSID', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'CLASS', 'AMOUNT', 'DOCNUM', 'MEMO'],
  ['!SPL', 'SPLID', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'CLASS', 'AMOUNT', 'DOCNUM', 'MEMO'],
  ['!ENDTRNS'],
];
const trns = (
  type: string,
  date: string,
  account: string,
  amount: string,
  extra: string[] = [],
) => ['TRNS', '', type, date, account, extra[0] ?? '', '', amount, extra[1] ?? '', extra[2] ?? ''];
const spl = (type: string, date: string, account: string, amount: string, extra: string[] = []) => [
  'SPL',
  '',
  type,
  date,
  account,
  extra[0] ?? '',
  '',
  amount,
  extra[1] ?? '',
  extra[2] ?? '',
];

const read = readLedgerFile;

describe('reading a QuickBooks Desktop IIF file', () => {
  it('takes the chart from !ACCNT (types mapped, ACCNUM as the code) and a journal entry from TRNS/SPL', async () => {
    const file = fileOf([
      ['!HDR', 'PROD', 'VER', 'REL', 'IIFVER', 'DATE', 'TIME'],
      ['HDR', 'QuickBooks Pro', 'Version 2007', 'Release R1', '1', '1/2/2007', '1167696000'],
      ['!ACCNT', 'NAME', 'REFNUM', 'ACCNTTYPE', 'OBAMOUNT', 'ACCNUM'],
      ['ACCNT', 'Checking', '1', 'BANK', '1000.00', '1010'],
      ['ACCNT', 'Office Supplies', '2', 'EXP', '0', '6100'],
      ['ACCNT', 'Visa', '3', 'CCARD', '0', ''],
      ...HEADERS,
      trns('GENERAL JOURNAL', '1/5/2007', 'Office Supplies', '125.40', ['', 'GJ-1', 'Paper']),
      spl('GENERAL JOURNAL', '1/5/2007', 'Checking', '-100.00'),
      spl('GENERAL JOURNAL', '1/5/2007', 'Visa', '-25.40'),
      ['ENDTRNS'],
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'read as IIF (QuickBooks Desktop): its first line is an IIF header',
      'encoding UTF-8',
      'IIF: 1 transaction, 3 chart accounts (!ACCNT)',
      'IIF: 1 OBAMOUNT of the chart left aside: the transactions make the balances (--opening-balances posts them as well)',
    ]);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      entry: 'GENERAL JOURNAL GJ-1',
      date: '2007-01-05',
      memo: 'Paper',
      fileLine: 10,
    });
    expect(
      entry!.lines.map((l) => [
        l.accountCode,
        l.accountName ?? l.account,
        l.accountType,
        l.debitCents,
        l.creditCents,
      ]),
    ).toEqual([
      ['6100', 'Office Supplies', 'Operating Expenses', 12540, 0],
      ['1010', 'Checking', 'Cash', 0, 10000],
      [undefined, 'Visa', 'Credit Cards', 0, 2540],
    ]);
  });

  it('reads any transaction type, a line’s payee and memo, and skips lines of zero and lists that are not the books', async () => {
    const file = fileOf([
      ['!CUST', 'NAME', 'BADDR1'],
      ['CUST', 'Corner Cafe', '1 Main St'],
      ...HEADERS,
      trns('CHECK', '7/16/1998', 'Checking', '-110', ['Paper Co', '1042']),
      spl('CHECK', '7/16/1998', 'Supplies', '100', ['', '', 'Paper']),
      spl('CHECK', '7/16/1998', 'Supplies', '10', ['', '', 'Toner']),
      spl('CHECK', '7/16/1998', 'Supplies', '0.00', ['', '', 'Discount line']),
      ['ENDTRNS'],
      trns('DEPOSIT', '07/17/98', 'Checking', '"1,250.00"', ['', '', '"5"" screen, returned"']),
      spl('DEPOSIT', '07/17/98', 'Sales', '-1250.00'),
      ['ENDTRNS'],
    ]);
    const { entries, problems, notes } = await read(file, { format: 'iif' });
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'encoding UTF-8',
      'IIF: 2 transactions, 0 chart accounts (!ACCNT)',
      'IIF: 1 line of zero left out',
      'IIF: lists that are not the books left out: CUST 1',
    ]);
    expect(entries.map((e) => [e.entry, e.date, e.memo, e.lines.length])).toEqual([
      ['CHECK 1042', '1998-07-16', '', 3],
      ['DEPOSIT at line 11', '1998-07-17', '5" screen, returned', 2],
    ]);
    expect(entries[0]!.lines.map((l) => l.description)).toEqual(['Paper Co', 'Paper', 'Toner']);
    expect(entries[1]!.lines[0]).toMatchObject({
      account: 'Checking',
      debitCents: 125000,
      accountType: undefined,
    });
  });

  it('reports each unbalanced transaction with its lines, and rows out of place, all in one pass', async () => {
    const file = fileOf([
      ...HEADERS,
      trns('CASH SALE', '7/28/2012', 'Market Till', '11.00', ['', '1E4M']),
      spl('CASH SALE', '7/28/2012', 'Sales', '-13.00'),
      ['ENDTRNS'],
      spl('CASH SALE', '7/28/2012', 'Sales', '-1.00'),
      ['ENDTRNS'],
      trns('CASH SALE', '7/32/2012', 'Market Till', '5.00'),
      spl('CASH SALE', '7/32/2012', 'Sales', 'five'),
      ['ENDTRNS'],
      trns('INVOICE', '8/1/2012', 'Accounts Receivable', '5.00', ['', 'INV-9']),
      trns('INVOICE', '8/1/2012', 'Accounts Receivable', '5.00'),
      spl('INVOICE', '8/1/2012', 'Sales', '-5.00'),
    ]);
    const { problems } = await read(file);
    expect(problems).toEqual([
      '4: entry "CASH SALE 1E4M" (lines 4–5) does not balance: debits 11.00, credits 13.00',
      '7: an SPL row outside a transaction (after ENDTRNS, or before any TRNS)',
      '8: an ENDTRNS row without its TRNS',
      '9: TRNS: DATE "7/32/2012" is not a date (M/D/YYYY)',
      '10: SPL: AMOUNT "five" is not an amount',
      '12: entry "INVOICE INV-9" (line 12) is a single line: an entry needs two (debits 5.00, credits 0.00)',
      '13: a TRNS row before the ENDTRNS of the transaction before it',
      '13: transaction "INVOICE at line 13" has no ENDTRNS',
    ]);
  });

  it('refuses lines on a NONPOSTING account and an empty ACCNT', async () => {
    const file = fileOf([
      ['!ACCNT', 'NAME', 'ACCNTTYPE'],
      ['ACCNT', 'Estimates', 'NONPOSTING'],
      ['ACCNT', '', 'BANK'],
      ...HEADERS,
      trns('ESTIMATE', '1/5/2007', 'Estimates', '10'),
      spl('ESTIMATE', '1/5/2007', '', '-10'),
      ['ENDTRNS'],
    ]);
    const { problems } = await read(file);
    expect(problems).toEqual([
      '3: ACCNT: NAME is empty',
      `7: TRNS: account "Estimates" is NONPOSTING in the file's chart (an estimate or an order): it takes no lines`,
      '8: SPL: ACCNT is empty',
    ]);
  });

  it('reads QuickBooks dates: M/D/YYYY, MM/DD/YY (00–49 in the 2000s) and ISO days', () => {
    expect(parseIifDate('7/1/1998')).toBe('1998-07-01');
    expect(parseIifDate('07/17/98')).toBe('1998-07-17');
    expect(parseIifDate('01/02/07')).toBe('2007-01-02');
    expect(parseIifDate('2012-07-28')).toBe('2012-07-28');
    expect(parseIifDate('28/07/2012')).toBeUndefined();
  });

  it('is told apart from the books CSV by its first line', () => {
    expect(
      formatOf(
        fileOf([
          ['!TRNS', 'DATE'],
          ['TRNS', '1/1/2020'],
        ]),
        'auto',
      ),
    ).toBe('iif');
    expect(formatOf(fileOf([['"!ACCNT"', 'NAME']]), undefined)).toBe('iif');
    const csv = path.join(dir, 'ledger.csv');
    writeFileSync(csv, 'date,account,debit,credit\n');
    expect(formatOf(csv, 'auto')).toBe('books');
    expect(formatOf(csv, 'iif')).toBe('iif');
  });
});

describe('a chart file (--chart)', () => {
  const chartOf = (text: string) => {
    const file = path.join(dir, `chart${(count += 1)}.csv`);
    writeFileSync(file, text);
    return file;
  };

  it('codes and types the accounts an export leaves untyped, matched by name', async () => {
    const file = fileOf([
      ...HEADERS,
      trns('GENERAL JOURNAL', '7/1/1998', 'Checking', '650'),
      spl('GENERAL JOURNAL', '7/1/1998', 'Expense Account', '-650'),
      ['ENDTRNS'],
    ]);
    const chart = chartOf(
      'code,name,type,parent\n1010, checking ,Cash,\n,Expense Account,expense,\n',
    );
    const { entries, problems, notes } = await read(file, { chartFile: chart });
    expect(problems).toEqual([]);
    expect(notes[0]).toBe(`2 accounts named, coded and typed by ${chart}`);
    expect(entries[0]!.lines.map((l) => [l.account, l.accountCode, l.accountType])).toEqual([
      ['1010\u0000Checking', '1010', 'Cash'],
      ['Expense Account', undefined, 'expense'],
    ]);
  });

  it('refuses a chart it cannot use, every problem at once', () => {
    const chart = chartOf('code,name,type\n1,Cash,Cash\n2,,Cash\n,cash,Cash\n4,Fees,Fun\n');
    expect(readChartFile(chart).problems.map((p) => p.message)).toEqual([
      `--chart ${chart}:3: the name is empty`,
      `--chart ${chart}:4: "cash" is also on line 2 (give each its code to keep both)`,
      `--chart ${chart}:5: "Fun" is not an account type`,
    ]);
    const headless = chartOf('code,account\n1,Cash\n');
    expect(readChartFile(headless).problems.map((p) => p.message)).toEqual([
      `--chart ${headless}: the header needs name and type (and may have code, parent)`,
    ]);
    const unreadable = path.join(dir, 'absent.csv');
    expect(readChartFile(unreadable).problems[0]!.message).toMatch(`--chart ${unreadable}: ENOENT`);
  });

  it('leaves alone a line the export already typed', () => {
    const fill = chartFiller([{ code: '9', name: 'Cash', type: 'Cash', line: 2 }], 'chart.csv');
    const line = {
      account: 'Cash',
      accountType: 'Equity',
      accountCode: undefined,
      accountName: undefined,
    } as never;
    fill(line);
    expect(line).toMatchObject({ account: 'Cash', accountType: 'Equity' });
  });

  it('--code-ranges types coded accounts by their longest matching leading digits', () => {
    const fill = codeRangeFiller(parseCodeRanges('1=asset, 11=cogs,4=income'));
    const lineOf = (accountCode: string | undefined) =>
      ({ account: 'x', accountCode, accountType: undefined }) as unknown as Parameters<
        typeof fill
      >[0];
    const lines = ['1000', '1100', '4000', '9000', undefined].map(lineOf);
    lines.forEach(fill);
    expect(lines.map((l) => l.accountType)).toEqual([
      'asset',
      'cogs',
      'income',
      undefined,
      undefined,
    ]);
    expect(() => parseCodeRanges('1=asset,x=income')).toThrow(
      '--code-ranges takes DIGITS=TYPE,… (e.g. 1=asset,2=liability,4=income), not "x=income"',
    );
    expect(() => parseCodeRanges('1=stuff')).toThrow('not "1=stuff"');
  });
});
