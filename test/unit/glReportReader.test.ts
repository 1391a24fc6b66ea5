import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatOf } from '../../src/formats/reader.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import {
  QB_DESKTOP,
  QBO_CURRENT_LAYOUT,
  QBO_CURRENT_LAYOUT_BALANCES,
  QBO_OLDER_LAYOUT,
  XERO_ACCOUNT_TRANSACTIONS,
} from '../helpers/reportFixtures.js';

/*
 * Fixtures written from how QuickBooks Online, QuickBooks Desktop and Xero print a General
 * Ledger (Account Transactions) report saved as CSV: a title block, a section per account headed
 * by the account alone on its row, rows, a Total row, opening and closing balances, footers.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-glreport-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fileOf = (lines: string[]) => {
  const file = path.join(dir, `r${(count += 1)}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};

/** Per account, debits less credits, from the entries read. */
const balances = (entries: Awaited<ReturnType<typeof readLedgerFile>>['entries']) => {
  const totals = new Map<string, number>();
  for (const entry of entries)
    for (const line of entry.lines)
      totals.set(
        line.accountName ?? line.account,
        (totals.get(line.accountName ?? line.account) ?? 0) + line.debitCents - line.creditCents,
      );
  return Object.fromEntries(totals);
};

describe('QuickBooks and Xero ledger reports', () => {
  it('QuickBooks Online: signs told from the pairs, sub-accounts, totals checked', async () => {
    const file = fileOf([...QBO_OLDER_LAYOUT]);
    expect(formatOf(file, 'auto')).toBe('qb-report');
    const { entries, problems, notes } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(4);
    expect(balances(entries)).toEqual({
      Checking: 25_000,
      'Accounts Payable (A/P)': 0,
      Sales: -120_000,
      Ingredients: 30_000,
      Rent: 65_000,
    });
    expect(notes).toContain(
      "ledger report: one Amount column in each account's own sense; 2 accounts are in the credit sense, told from the pairs",
    );
  });

  it('a total that its rows do not make is refused', async () => {
    const edited = QBO_OLDER_LAYOUT.map((l) =>
      l.startsWith('Total for Rent') ? 'Total for Rent,,,,,,,$600.00,' : l,
    );
    const { problems } = await readLedgerFile(fileOf(edited));
    expect(problems).toEqual([
      '24: account Rent: its rows make 650.00, its total row says 600.00 (an edited or cut report)',
    ]);
  });

  it('QuickBooks Desktop: Debit and Credit, codes with " · ", Total rows', async () => {
    const file = fileOf([...QB_DESKTOP]);
    expect(formatOf(file, 'auto')).toBe('qb-report');
    const { entries, problems } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.lines.map((l) => [l.accountCode, l.accountName]))).toEqual([
      [
        ['1000', 'Checking'],
        ['4000', 'Sales'],
      ],
      [
        ['1000', 'Checking'],
        ['6000', 'Rent'],
      ],
    ]);
    expect(balances(entries)).toEqual({ Checking: 55_000, Sales: -120_000, Rent: 65_000 });
  });

  it.each([
    ['Type'],
    ['Num'],
    ['Name'],
    ['Memo'],
    ['Split'],
    ['Adj', 'Balance'],
    ['Type', 'Num', 'Adj', 'Name', 'Memo', 'Split', 'Balance'],
  ])(
    'QuickBooks Desktop with columns taken off the report (%s …): Date and the amounts are enough',
    async (...left) => {
      const header = QB_DESKTOP[3]!.split(',');
      const keep = header.map((name, i) => i < 2 || !left.includes(name));
      const cut = QB_DESKTOP.map((row, at) =>
        at < 3
          ? row
          : row
              .match(/("[^"]*"|[^,]*)(,|$)/g)!
              .filter((cell) => cell !== '')
              .map((cell) => cell.replace(/,$/, ''))
              .filter((_, i) => keep[i])
              .join(','),
      );
      const file = fileOf(cut);
      expect(formatOf(file, 'auto')).toBe('qb-report');
      const { entries, problems } = await readLedgerFile(file);
      expect(problems).toEqual([]);
      expect(balances(entries)).toEqual({ Checking: 55_000, Sales: -120_000, Rent: 65_000 });
    },
  );

  it('Xero Account Transactions: codes in parentheses, named months, opening balances', async () => {
    const file = fileOf([...XERO_ACCOUNT_TRANSACTIONS]);
    expect(formatOf(file, 'auto')).toBe('xero-report');
    const { entries, problems, notes } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.date, e.lines.length])).toEqual([
      ['2025-01-03', 2],
      ['2025-01-03', 2],
    ]);
    expect(balances(entries)).toEqual({
      'Business Bank Account': 170_000,
      "Owner's Equity": -50_000,
      Sales: -120_000,
    });
    expect(notes).toContain(
      "ledger report: 2 opening balances posted as one entry on the report's first day",
    );
  });

  it('a single-sided report: unbalanced without --offset-account, each row against it with', async () => {
    const lines = [
      'General Ledger',
      ',Date,Transaction Type,Num,Name,Memo/Description,Split,Amount,Balance',
      'Checking,,,,,,,,',
      ',01/03/2025,Deposit,,,January sales,Sales,"1,200.00","1,200.00"',
      ',01/15/2025,Expense,101,Landlord LLC,Rent,Rent,-650.00,550.00',
      'Total for Checking,,,,,,,$550.00,',
    ];
    const alone = await readLedgerFile(fileOf(lines));
    expect(alone.problems).toEqual([
      '4: lines 4 (Deposit January sales, 2025-01-03) do not balance: 1,200.00 left over; a single-sided report needs --offset-account',
      '5: lines 5 (Expense 101 Landlord LLC Rent, 2025-01-15) do not balance: -650.00 left over; a single-sided report needs --offset-account',
    ]);
    const offset = await readLedgerFile(fileOf(lines), { offsetAccount: 'Suspense' });
    expect(offset.problems).toEqual([]);
    expect(balances(offset.entries)).toEqual({ Checking: 55_000, Suspense: -55_000 });
  });

  it('says what it cannot place: a row before any section, opening balances that do not balance', async () => {
    const { problems } = await readLedgerFile(
      fileOf([
        'General Ledger',
        'Date,Type,Num,Name,Debit,Credit,Balance',
        '01/25/2025,Deposit,D1,,100.00,,',
        'Checking,,,,,,',
        'Beginning Balance,,,,,,500.00',
        '01/26/2025,Deposit,D2,,50.00,,550.00',
        'Total Checking,,,,50.00,0.00,550.00',
        'Sales,,,,,,',
        '01/26/2025,Deposit,D2,,,50.00,-50.00',
        'Total Sales,,,,0.00,50.00,-50.00',
      ]),
    );
    expect(problems).toEqual([
      '3: a row before any account section',
      '5: the opening balances (lines 5) leave 500.00 over: their other side is not in the report; pass --offset-account',
    ]);
  });

  it('day and month told over the whole report', async () => {
    const file = fileOf([
      'General Ledger',
      'Date,Type,Num,Name,Debit,Credit',
      'Checking,,,,,',
      '25/01/2025,Deposit,D1,,100.00,',
      '02/03/2025,Deposit,D2,,50.00,',
      'Total Checking,,,,150.00,0.00',
      'Sales,,,,,',
      '25/01/2025,Deposit,D1,,,100.00',
      '02/03/2025,Deposit,D2,,,50.00',
      'Total Sales,,,,0.00,150.00',
    ]);
    const { entries, problems, notes } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.date)).toEqual(['2025-01-25', '2025-03-02']);
    expect(notes.join('\n')).toContain('dates DD/MM/YYYY');
  });

  describe("QuickBooks Online's current layout", () => {
    it('imports to its trial balance: beginning balances, parentheses, dollar totals, a deleted account, a three-way split', async () => {
      const file = fileOf([...QBO_CURRENT_LAYOUT]);
      expect(formatOf(file, 'auto')).toBe('qb-report');
      const { entries, problems, notes } = await readLedgerFile(file);
      expect(problems).toEqual([]);
      expect(balances(entries)).toEqual(QBO_CURRENT_LAYOUT_BALANCES);
      const opening = entries.find((e) => e.entry === 'opening balances')!;
      expect(opening.date).toBe('2026-01-02');
      expect(opening.lines.map((l) => [l.accountCode, l.debitCents, l.creditCents])).toEqual([
        ['1000', 9_012_479, 0],
        ['1500', 500_000, 0],
        ['1700', 18_000_000, 0],
        ['2000', 0, 125_000],
        ['2700', 0, 25_000_000],
        ['3000', 0, 2_387_479],
      ]);
      const payment = entries.find((e) => e.date === '2026-02-02')!;
      expect(payment.lines.map((l) => [l.accountName, l.debitCents, l.creditCents])).toEqual([
        ['Checking - Umpqua 5658', 0, 256_245],
        ['Loan - PennyMac', 201_000, 0],
        ['Interest Expense', 55_245, 0],
      ]);
      expect(notes).toEqual(
        expect.arrayContaining([
          "ledger report: one Amount column in each account's own sense; 3 accounts are in the credit sense, told from the pairs",
          "ledger report: 3000 Owner's Equity in the credit sense, told by the opening balances (no pair names it; they must balance)",
          'ledger report: 1 deleted account kept, named as QuickBooks names them: 1500 Old Savings (deleted)',
        ]),
      );
    });

    it.each([
      ['Transaction type', 'Num'],
      ['Name', 'Memo/Description'],
      ['Split account'],
      ['Transaction type', 'Num', 'Name', 'Memo/Description', 'Split account'],
    ])(
      'with columns taken off the report (%s …): the distribution account, date and amount are enough',
      async (...left) => {
        const header = QBO_CURRENT_LAYOUT[4]!.split(',');
        const keep = header.map((name) => !left.includes(name));
        const cut = QBO_CURRENT_LAYOUT.map((row, at) =>
          at < 4
            ? row
            : row
                .match(/("[^"]*"|[^,]*)(,|$)/g)!
                .filter((cell, i, all) => cell !== '' || i < all.length - 1)
                .map((cell) => cell.replace(/,$/, ''))
                .filter((_, i) => keep[i] ?? true)
                .join(','),
        );
        const file = fileOf(cut);
        expect(formatOf(file, 'auto')).toBe('qb-report');
        const { entries, problems } = await readLedgerFile(file);
        expect(problems).toEqual([]);
        expect(balances(entries)).toEqual(QBO_CURRENT_LAYOUT_BALANCES);
      },
    );

    it('reads the title rows in any order, and by --format qb-report', async () => {
      const [title, company, dates, ...rest] = QBO_CURRENT_LAYOUT;
      const file = fileOf([company!, dates!, title!, ...rest]);
      const { entries, problems } = await readLedgerFile(file, { format: 'qb-report' });
      expect(problems).toEqual([]);
      expect(balances(entries)).toEqual(QBO_CURRENT_LAYOUT_BALANCES);
    });

    it('takes a Total for row that gives where the account ends, from its beginning balance', async () => {
      const ending = QBO_CURRENT_LAYOUT.map((l) =>
        l.startsWith('Total for 1700 Equipment')
          ? 'Total for 1700 Equipment,,,,,,,,"$181,899.99",'
          : l,
      );
      const { problems } = await readLedgerFile(fileOf(ending));
      expect(problems).toEqual([]);
    });

    it('refuses a section whose rows disagree with its total, naming it', async () => {
      const edited = QBO_CURRENT_LAYOUT.map((l) =>
        l.startsWith('Total for 2700') ? 'Total for 2700 Loan - PennyMac,,,,,,,,"-$6,003.05",' : l,
      );
      const line = edited.findIndex((l) => l.startsWith('Total for 2700')) + 1;
      const { problems } = await readLedgerFile(fileOf(edited));
      expect(problems).toEqual([
        `${line}: account 2700 Loan - PennyMac: its rows make -6,030.05, its total row says -6,003.05 (an edited or cut report)`,
      ]);
    });
  });
});

describe('a tax column added to the report carries each line its code', () => {
  it('Xero Account Transactions with Tax Rate: the sale, its VAT, and the bank line without one', async () => {
    const file = fileOf([
      'Account Transactions',
      'Harbour Café Ltd',
      'For the period 1 July 2026 to 31 July 2026',
      '',
      'Date,Source,Description,Reference,Debit,Credit,Running Balance,Gross,VAT,Tax Rate',
      'Business Bank Account (090),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,"1,200.00",,"1,200.00","1,200.00",0.00,',
      'Total Business Bank Account (090),,,,"1,200.00",0.00,,,,',
      'Sales (200),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,,"1,000.00","-1,000.00","-1,200.00",-200.00,20% (VAT on Income)',
      'Total Sales (200),,,,0.00,"1,000.00",,,,',
      'VAT (820),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,,200.00,-200.00,,,20% (VAT on Income)',
      'Total VAT (820),,,,0.00,200.00,,,,',
    ]);
    const { entries, problems } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => [l.accountName, l.taxCode ?? null])).toEqual([
      ['Business Bank Account', null],
      ['Sales', '20% (VAT on Income)'],
      ['VAT', '20% (VAT on Income)'],
    ]);
  });
});
