import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import { formatOf } from '../../src/formats/reader.js';

/*
 * Fixtures written from GnuCash's description of "Export Transactions to CSV": a row per split;
 * in the simple layout the transaction's fields are on its first split only; amounts signed,
 * positive a debit; full account names joined by ':'.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-gnucash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const SIMPLE =
  'Date,Transaction ID,Number,Description,Notes,Commodity/Currency,Void Reason,Action,Memo,Full Account Name,Account Name,Amount With Sym,Amount Num.,Reconcile,Reconcile Date,Rate/Price';
const FULL =
  'Date,Transaction ID,Number,Description,Notes,Commodity/Currency,Void Reason,Action,Memo,Full Account Name,Account Name,Amount With Sym,Amount Num.,Value With Sym,Value Num.,Reconcile,Reconcile Date,Rate/Price';
const fileOf = (lines: string[]) => {
  const file = path.join(dir, `g${(count += 1)}.csv`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};

const read = readLedgerFile;

describe('reading a GnuCash transaction export', () => {
  it('fills the transaction down its splits, types accounts by their top-level name, and tells the dates', async () => {
    const file = fileOf([
      SIMPLE,
      '01/02/2017,t1,,Paycheck,January,CURRENCY::USD,,,,Assets:Current Assets:Checking,Checking,"$2,000.00","2,000.00",n,,1.00',
      ',,,,,,,,Gross,Income:Salary,Salary,"-$2,500.00","-2,500.00",n,,1.00',
      ',,,,,,,,,Expenses:Taxes:Federal,Federal,$500.00,500.00,n,,1.00',
      ',,,,,,,,,Expenses:Bank Service Charge,Fees,$0.00,0.00,n,,1.00',
      '01/29/2017,t2,101,Rent,,CURRENCY::USD,,,,Expenses:Rent,Rent,$900.00,900.00,n,,1.00',
      ',,,,,,,,,Liabilities:Credit Card,Credit Card,-$900.00,-900.00,n,,1.00',
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'read as GnuCash "Export Transactions to CSV": its header names GnuCash\'s columns, in one of its languages',
      'encoding UTF-8',
      'GnuCash: 2 transactions, dates MM/DD/YYYY, decimals with a point; accounts by full name, typed by their top-level name',
      'GnuCash: 1 split of zero left out',
    ]);
    expect(entries.map((e) => [e.entry, e.date, e.memo])).toEqual([
      ['t1', '2017-01-02', 'Paycheck — January'],
      ['t2', '2017-01-29', 'Rent'],
    ]);
    expect(
      entries[0]!.lines.map((l) => [
        l.account,
        l.accountType,
        l.debitCents,
        l.creditCents,
        l.description,
      ]),
    ).toEqual([
      ['Assets:Current Assets:Checking', 'asset', 200000, 0, 'Paycheck'],
      ['Income:Salary', 'income', 0, 250000, 'Gross'],
      ['Expenses:Taxes:Federal', 'expense', 50000, 0, 'Paycheck'],
    ]);
    expect(entries[1]!.lines[1]).toMatchObject({
      account: 'Liabilities:Credit Card',
      accountType: 'liability',
    });
  });

  it('reads the full layout by its transaction value, and day-first dates', async () => {
    const file = fileOf([
      FULL,
      '13/02/2018,t1,,Lunch,,CURRENCY::EUR,,,,Expenses:Dining,Dining,€12.50,12.50,€12.50,12.50,n,,1.00',
      '13/02/2018,t1,,Lunch,,CURRENCY::EUR,,,,Assets:Cash,Cash,-€12.50,-12.50,-€12.50,-12.50,n,,1.00',
    ]);
    const { entries, problems } = await read(file, { format: 'gnucash' });
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ date: '2018-02-13' });
    expect(entries[0]!.lines.map((l) => [l.debitCents, l.creditCents])).toEqual([
      [1250, 0],
      [0, 1250],
    ]);
  });

  it('refuses dates that read both ways unless --date-format says which', async () => {
    const lines = [
      SIMPLE,
      '01/02/2017,t1,,A,,CURRENCY::USD,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
      ',,,,,,,,,Income:Sales,Sales,-$1.00,-1.00,n,,1.00',
    ];
    expect((await read(fileOf(lines))).problems).toEqual([
      '1: the dates read two ways, as MM/DD/YYYY and as DD/MM/YYYY (no day is over 12): 01/02/2017 reads 2017-01-02 as MM/DD/YYYY and 2017-02-01 as DD/MM/YYYY: pass --date-format MM/DD/YYYY or --date-format DD/MM/YYYY (books config set date-format DD/MM/YYYY settles it for every such file)',
    ]);
    const told = await read(fileOf(lines), { dateFormat: 'DD/MM/YYYY' });
    expect(told.entries[0]!.date).toBe('2017-02-01');
  });

  it('refuses a second currency, unbalanced transactions and splits out of place, all in one pass', async () => {
    const file = fileOf([
      SIMPLE,
      ',,,,,,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
      '01/13/2017,t1,,A,,CURRENCY::USD,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
      ',,,,,,,,,Income:Sales,Sales,-$2.00,-2.00,n,,1.00',
      '01/14/2017,t2,,B,,CURRENCY::CAD,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
      ',,,,,,,,,,Sales,-$1.00,-1.00,n,,1.00',
      ',,,,,,,,,Income:Sales,Sales,-$1.00,one,n,,1.00',
      '02/30/2017,t3,,C,,CURRENCY::USD,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
    ]);
    const { problems } = await read(file);
    expect(problems).toEqual([
      '1: the file holds 2 currencies: USD (2 transactions), CAD (1 transaction); an entity keeps its books in one: keep one with --currency CODE',
      '2: a split before any transaction (its Transaction ID is empty)',
      '3: entry "t1" (lines 3–4) does not balance: debits 1.00, credits 2.00',
      '5: entry "t2" (line 5) is a single line: an entry needs two (debits 1.00, credits 0.00)',
      '6: the Full Account Name is empty',
      '7: the amount "one" is not an amount',
      '8: date "02/30/2017" is not a date (MM/DD/YYYY)',
    ]);
  });

  it('is told apart by its header, and a header without its columns is not taken for it', async () => {
    expect(formatOf(fileOf([SIMPLE]), 'auto')).toBe('gnucash');
    expect(formatOf(fileOf(['date,account,debit,credit']), 'auto')).toBe('books');
    const { problems } = await read(fileOf(['Date,Transaction ID,Description']), {
      format: 'gnucash',
    });
    expect(problems).toEqual([
      '1: not a GnuCash transaction export: the header names neither Transaction ID, Full Account Name and Amount Num. nor Account Name, Full Category Path and Amount Num., in any language GnuCash writes (header: Date, Transaction ID, Description)',
    ]);
  });

  it('keeps one currency with --currency, counting the splits it leaves out', async () => {
    const file = fileOf([
      SIMPLE,
      '01/13/2017,t1,,A,,CURRENCY::USD,,,,Assets:Cash,Cash,$1.00,1.00,n,,1.00',
      ',,,,,,,,,Income:Sales,Sales,-$1.00,-1.00,n,,1.00',
      '01/14/2017,t2,,B,,CURRENCY::EUR,,,,Assets:Cash,Cash,€2.00,2.00,n,,1.00',
      ',,,,,,,,,Income:Sales,Sales,-€2.00,-2.00,n,,1.00',
    ]);
    const kept = await read(file, { currency: 'EUR' });
    expect(kept.problems).toEqual([]);
    expect(kept.entries.map((e) => e.entry)).toEqual(['t2']);
    expect(kept.notes).toContain(
      'GnuCash: 2 splits in other currencies than EUR left out (--currency)',
    );
    expect((await read(file, { currency: 'GBP' })).problems).toEqual([
      '1: --currency GBP: the file holds USD, EUR',
    ]);
  });

  it('a European export: decimal commas and dotted dates, told over the file', async () => {
    const file = fileOf([
      SIMPLE,
      '31.01.2017,t1,,Miete,,CURRENCY::EUR,,,,Aufwand:Miete,Miete,"1.200,00 €","1.200,00",n,,"1,00"',
      ',,,,,,,,,Aktiva:Bank,Bank,"-1.200,00 €","-1.200,00",n,,"1,00"',
      '15.02.2017,t2,,Gebühr,,CURRENCY::EUR,,,,Aufwand:Bank,Bank,"2,50 €","2,50",n,,"1,00"',
      ',,,,,,,,,Aktiva:Bank,Bank,"-2,50 €","-2,50",n,,"1,00"',
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.date, e.lines.map((l) => l.debitCents - l.creditCents)])).toEqual([
      ['2017-01-31', [120_000, -120_000]],
      ['2017-02-15', [250, -250]],
    ]);
    expect(notes).toContain(
      'GnuCash: 2 transactions, dates each of one reading (none written a/b/year), decimals with a comma; accounts by full name, typed by their top-level name',
    );
  });

  it('leaves voided transactions out: GnuCash prints their former amounts beside the void reason', async () => {
    const file = fileOf([
      FULL,
      '02/13/2018,t1,,Lunch,,CURRENCY::USD,,,,Expenses:Dining,Dining,$12.50,12.50,$12.50,12.50,n,,1.00',
      '02/13/2018,t1,,Lunch,,CURRENCY::USD,,,,Assets:Cash,Cash,-$12.50,-12.50,-$12.50,-12.50,n,,1.00',
      '02/14/2018,t2,101,Rent,,CURRENCY::USD,Wrong payee,,,Expenses:Rent,Rent,$900.00,900.00,$900.00,900.00,v,,1.00',
      '02/14/2018,t2,101,Rent,,CURRENCY::USD,Wrong payee,,,Assets:Checking,Checking,-$900.00,-900.00,-$900.00,-900.00,v,,1.00',
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.entry)).toEqual(['t1']);
    expect(notes).toContain(
      'GnuCash: 1 voided transaction left out (GnuCash prints their former amounts)',
    );
  });

  it('amounts as a European locale writes them, with the currency after a no-break space: "10,00 US$" is ten dollars', async () => {
    const usd = (amount: string) => `"${amount}\u00a0US$","${amount}"`;
    const file = fileOf([
      FULL,
      `13.02.2018,t1,,Lunch,,CURRENCY::USD,,,,Expenses:Dining,Dining,${usd('10,00')},${usd('10,00')},n,,"1,00"`,
      `13.02.2018,t1,,Lunch,,CURRENCY::USD,,,,Assets:Cash,Cash,${usd('-10,00')},${usd('-10,00')},n,,"1,00"`,
      `14.02.2018,t2,,Rent,,CURRENCY::USD,,,,Expenses:Rent,Rent,${usd('1.000,00')},${usd('1.000,00')},n,,"1,00"`,
      `14.02.2018,t2,,Rent,,CURRENCY::USD,,,,Assets:Cash,Cash,${usd('-1.000,00')},${usd('-1.000,00')},n,,"1,00"`,
    ]);
    const { entries, problems } = await read(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.lines.map((l) => l.debitCents - l.creditCents))).toEqual([
      [1000, -1000],
      [100000, -100000],
    ]);
  });

  it('a file whose amounts say nothing of the decimal mark reads each amount the only way it stands', async () => {
    const file = fileOf([
      FULL,
      '13.02.2018,t1,,Lunch,,CURRENCY::EUR,,,,Expenses:Dining,Dining,1.000 €,1.000,1.000 €,1.000,n,,1',
      '13.02.2018,t1,,Lunch,,CURRENCY::EUR,,,,Assets:Cash,Cash,-1.000 €,-1.000,-1.000 €,-1.000,n,,1',
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => l.debitCents - l.creditCents)).toEqual([100000, -100000]);
    expect(notes).toContain(
      'GnuCash: 1 transaction, dates each of one reading (none written a/b/year), decimals with a point or a comma, as each amount reads; accounts by full name, typed by their top-level name',
    );
  });

  it("reads GnuCash 2.6's layout (a T row, then its S rows), and names the rows it cannot", async () => {
    const REGISTER =
      'Date,Transaction Type,Second Date,Account Name,Number,Description,Notes,Memo,Full Category Path,Category,Row Type,Action,Reconcile,Amount With Sym,Commodity Mnemonic,Commodity Namespace,Amount Num.,Rate/Price';
    const file = fileOf([
      REGISTER,
      ',,,,,,,,Assets:Cash,Cash,S,,n,$1.00,USD,CURRENCY,1.00,1.00',
      '01/13/2017, ,,Checking,12,Sale,,,Income:Sales,Sales,T,,n,,USD,CURRENCY,,',
      ',,,,,,,Till,Assets:Checking,Checking,S,,n,$25.00,USD,CURRENCY,25.00,1.00',
      ',,,,,,,,Income:Sales,Sales,S,,n,-$25.00,USD,CURRENCY,-25.00,1.00',
      '01/14/2017, ,,Checking,13,Shares,,,Assets:Broker:ACME,ACME,T,,n,,USD,CURRENCY,,',
      ',,,,,,,,Assets:Broker:ACME,ACME,S,,n,3 ACME,ACME,NASDAQ,3.00,33.333333',
      ',,,,,,,,Assets:Checking,Checking,S,,n,-$100.00,USD,CURRENCY,-100.00,1.00',
      ',,,,,,,,,,S,,n,$1.00,USD,CURRENCY,1.00,1.00',
    ]);
    const { entries, problems, notes } = await read(file);
    expect(problems).toEqual([
      '2: a split before any transaction (no T row above it)',
      '9: the Full Category Path is empty',
    ]);
    expect(
      entries.map((e) => [
        e.date,
        e.lines.map((l) => [l.account, l.debitCents - l.creditCents, l.description]),
      ]),
    ).toEqual([
      [
        '2017-01-13',
        [
          ['Assets:Checking', 2500, 'Till'],
          ['Income:Sales', -2500, 'Sale'],
        ],
      ],
      [
        '2017-01-14',
        [
          ['Assets:Broker:ACME', 10000, 'Shares (3.00 ACME)'],
          ['Assets:Checking', -10000, 'Shares'],
        ],
      ],
    ]);
    expect(notes).toContain("GnuCash: GnuCash 2.6's layout, a T row and its S rows");
  });
});
