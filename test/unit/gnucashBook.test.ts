import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { formatOf } from '../../src/formats/reader.js';
import {
  bookXml,
  writeBookSqlite,
  writeBookXml,
  type Commodity,
  type GnuAccount,
  type GnuBook,
  type GnuTransaction,
} from '../helpers/gnucashBooks.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

/*
 * GnuCash books written here as GnuCash writes them (helpers/gnucashBooks.ts: XML plain and
 * gzip-compressed, SQLite), across GnuCash's account types, commodities, placeholders, hidden
 * accounts, scheduled transactions' templates and voided transactions, each read to the figures
 * the test computes; and what is not a book GnuCash 2 or later wrote, refused.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-gnucash-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileNamed = (suffix = 'gnucash') => path.join(dir, `b${(files += 1)}.${suffix}`);

const USD: Commodity = { space: 'CURRENCY', id: 'USD' };
const EUR: Commodity = { space: 'CURRENCY', id: 'EUR' };
const ACME: Commodity = { space: 'NASDAQ', id: 'ACME' };
const id = (n: number) => (0x100 + n).toString(16).padStart(32, 'a');

/** An account of every GnuCash type, a placeholder parent, a hidden one, a euro account. */
const TYPES = [
  'BANK',
  'CASH',
  'CREDIT',
  'ASSET',
  'STOCK',
  'MUTUAL',
  'RECEIVABLE',
  'LIABILITY',
  'PAYABLE',
  'EQUITY',
  'INCOME',
  'EXPENSE',
  'TRADING',
];
const EXPECTED_TYPES: Record<string, string> = {
  BANK: 'Cash',
  CASH: 'Cash',
  CREDIT: 'Credit Cards',
  ASSET: 'Other Current Assets',
  STOCK: 'Investments',
  MUTUAL: 'Investments',
  RECEIVABLE: 'Accounts Receivable',
  LIABILITY: 'Other Current Liabilities',
  PAYABLE: 'Accounts Payable',
  EQUITY: 'Equity',
  INCOME: 'Income',
  EXPENSE: 'Operating Expenses',
  TRADING: 'Equity',
};

function sampleBook(): GnuBook {
  const parent: GnuAccount = {
    id: id(0),
    name: 'Everything',
    type: 'ASSET',
    commodity: USD,
    placeholder: true,
  };
  const accounts: GnuAccount[] = [
    parent,
    ...TYPES.map((type, i) => ({
      id: id(i + 1),
      name: type === 'STOCK' ? 'ACME shares' : `A ${type.toLowerCase()} account`,
      type,
      parent: type === 'BANK' || type === 'CASH' ? parent.id : undefined,
      code: type === 'INCOME' ? '4000' : undefined,
      commodity: type === 'STOCK' ? ACME : USD,
      hidden: type === 'MUTUAL',
    })),
    { id: id(50), name: 'Euro account', type: 'BANK', commodity: EUR },
  ];
  const acct = (type: string) => id(TYPES.indexOf(type) + 1);
  const cents = (n: number): [number, number] => [n, 100];
  const transactions: GnuTransaction[] = [
    // Every type against the bank: 10.00 each way.
    ...TYPES.filter((t) => t !== 'BANK' && t !== 'STOCK').map((type, i) => ({
      id: id(100 + i),
      date: `2025-01-${String(i + 2).padStart(2, '0')}`,
      num: String(i + 1),
      description: `With ${type}`,
      currency: USD,
      splits: [
        { account: acct('BANK'), value: cents(1000 + i), quantity: cents(1000 + i), memo: 'in' },
        { account: acct(type), value: cents(-(1000 + i)), quantity: cents(-(1000 + i)) },
      ],
    })),
    // Shares: 3 ACME for 1,000.00.
    {
      id: id(200),
      date: '2025-02-01',
      description: 'Buy ACME',
      currency: USD,
      splits: [
        { account: acct('STOCK'), value: cents(100_000), quantity: [3, 1] },
        { account: acct('BANK'), value: cents(-100_000), quantity: cents(-100_000) },
      ],
    },
    // A euro expense paid from the dollar bank: 90.00 EUR cost 99.00 USD.
    {
      id: id(201),
      date: '2025-02-02',
      description: 'Paris hotel',
      currency: EUR,
      splits: [
        { account: acct('EXPENSE'), value: cents(9000), quantity: cents(9900) },
        { account: acct('BANK'), value: cents(-9000), quantity: cents(-9900) },
      ],
    },
    // A zero split on a three-split transaction.
    {
      id: id(202),
      date: '2025-02-03',
      description: 'Paycheck',
      currency: USD,
      splits: [
        { account: acct('BANK'), value: cents(200_000), quantity: cents(200_000) },
        { account: acct('INCOME'), value: cents(-250_000), quantity: cents(-250_000) },
        { account: acct('EXPENSE'), value: cents(50_000), quantity: cents(50_000) },
        { account: acct('LIABILITY'), value: cents(0), quantity: cents(0) },
      ],
    },
    // Voided: GnuCash zeroes it and keeps its former amounts.
    {
      id: id(203),
      date: '2025-02-04',
      description: 'Wrong check',
      currency: USD,
      voidReason: 'Written in error',
      splits: [
        { account: acct('EXPENSE'), value: cents(70_000), quantity: cents(70_000) },
        { account: acct('BANK'), value: cents(-70_000), quantity: cents(-70_000) },
      ],
    },
  ];
  const templateAccount: GnuAccount = {
    id: id(300),
    name: id(301),
    type: 'BANK',
    commodity: { space: 'template', id: 'template' },
  };
  return {
    accounts,
    transactions,
    templates: {
      accounts: [templateAccount],
      transactions: [
        {
          id: id(302),
          date: '2025-01-01',
          description: 'Monthly rent (scheduled)',
          currency: USD,
          splits: [
            { account: templateAccount.id, value: cents(0), quantity: cents(0) },
            { account: templateAccount.id, value: cents(0), quantity: cents(0) },
          ],
        },
      ],
    },
  };
}

/** The entries the sample book is: per transaction not voided, its lines of the book's dollars. */
function expectedOf(book: GnuBook) {
  const byId = new Map(book.accounts.map((a) => [a.id, a]));
  const fullName = (accountId: string): string => {
    const a = byId.get(accountId)!;
    return a.parent && byId.has(a.parent) ? `${fullName(a.parent)}:${a.name}` : a.name;
  };
  return book.transactions
    .filter((t) => !t.voidReason)
    .map((t) => [
      t.date,
      t.splits
        .map((s) => {
          const a = byId.get(s.account)!;
          // In the book's currency: the dollar quantity of a dollar account; else the value
          // at the rate the dollar splits show (none here but the euro transaction's).
          const usd =
            a.commodity.id === 'USD' ? s.quantity[0] : t.currency.id === 'USD' ? s.value[0] : -1;
          return [fullName(s.account), usd];
        })
        .map(([name, usd], i, all) =>
          usd === -1
            ? [name, -all.filter((_, j) => j !== i).reduce((n, [, v]) => n + (v as number), 0)]
            : [name, usd],
        )
        .filter(([, v]) => v !== 0),
    ]);
}

const readAs = async (file: string) => {
  const { entries, problems, notes } = await readLedgerFile(file);
  return {
    problems,
    notes,
    read: entries.map((e) => [
      e.date,
      e.lines.map((l) => [l.accountName, l.debitCents - l.creditCents]),
    ]),
    lines: entries.flatMap((e) => e.lines),
  };
};

describe('the GnuCash book', () => {
  const book = sampleBook();
  const expected = expectedOf(book);
  const writers: [string, (file: string) => void][] = [
    ['XML, gzip-compressed (as GnuCash saves it)', (f) => writeBookXml(f, book, USD, true)],
    ['XML, uncompressed', (f) => writeBookXml(f, book, USD, false)],
    ['SQLite', (f) => writeBookSqlite(f, book, USD)],
  ];
  it.each(writers)(
    '%s: every transaction to its figures in the book’s currency, and said',
    async (_kind, write) => {
      const file = fileNamed();
      write(file);
      expect(formatOf(file, 'auto')).toBe('gnucash-book');
      const { read, problems, notes, lines } = await readAs(file);
      expect(problems).toEqual([]);
      expect(read).toEqual(expected);
      // Typed by GnuCash's types; the code kept; the shares' quantity in their description.
      const typeOf = new Map(lines.map((l) => [l.accountName, l.accountType]));
      for (const [i, type] of TYPES.entries()) {
        const a = book.accounts[i + 1]!;
        const name = a.parent ? `Everything:${a.name}` : a.name;
        if (typeOf.has(name))
          expect([type, typeOf.get(name)]).toEqual([type, EXPECTED_TYPES[type]]);
      }
      expect(lines.find((l) => l.accountName === 'A income account')!.accountCode).toBe('4000');
      expect(lines.find((l) => l.accountName === 'ACME shares')!.description).toBe(
        'Buy ACME (3 ACME)',
      );
      expect(notes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^GnuCash book \((XML|gzip-compressed XML|SQLite)\): 15 accounts, 14 transactions of 30 splits, in USD/,
          ),
          'GnuCash: 1 voided transaction left out',
          "GnuCash: 1 scheduled transactions' template left out (they are not postings)",
          'GnuCash: 1 transaction in another currency than USD, valued at the rate its splits in USD show',
          'GnuCash: 1 split of accounts in another commodity than USD (shares, another currency), posted at its value, its quantity in its description',
          'GnuCash: 1 split of zero left out',
          'GnuCash: 1 hidden account holds postings, imported: A mutual account',
        ]),
      );
    },
  );

  it('a book from before GnuCash 2.6.12 kept its days at a local midnight: read in this machine’s zone, said', async () => {
    const early: GnuBook = {
      accounts: book.accounts,
      transactions: [{ ...book.transactions[0]!, posted: '2024-12-31 23:00:00' }],
    };
    const file = fileNamed();
    writeBookSqlite(file, early, USD);
    const { read, notes } = await readAs(file);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(
      new Date('2024-12-31T23:00:00Z'),
    );
    expect(read[0]![0]).toBe(day);
    expect(notes).toContain(
      `GnuCash: 1 posted date kept at a local midnight (before GnuCash 2.6.12) read as days in ${zone} (this machine's time zone, as GnuCash shows them)`,
    );
  });

  it('--currency keeps another: the transactions in it at their values, the rest valued by their euro splits', async () => {
    const file = fileNamed();
    writeBookXml(file, book, USD, true);
    const { entries, problems } = await readLedgerFile(file, { currency: 'EUR' });
    // Only the euro transaction can be valued in euros (its splits' values are euros); the
    // dollar transactions have no split in euros and are named.
    expect(entries.map((e) => e.lines.map((l) => l.debitCents - l.creditCents))).toEqual([
      [9000, -9000],
    ]);
    expect(problems[0]!.replace(/^\d+: /, '')).toBe(
      `transaction "With CASH" of 2025-01-02 is in USD and none of its splits is in EUR, the book's currency: books cannot value it (give it a split in EUR, or import with --currency USD)`,
    );
  });

  it('a split naming an account the book does not have is named, not dropped', async () => {
    const stray: GnuBook = {
      accounts: book.accounts,
      transactions: [
        {
          ...book.transactions[0]!,
          splits: [
            book.transactions[0]!.splits[0]!,
            { ...book.transactions[0]!.splits[1]!, account: 'f'.repeat(32) },
          ],
        },
      ],
    };
    const file = fileNamed();
    writeBookXml(file, stray, USD, false);
    const { problems, read } = await readAs(file);
    expect(read).toEqual([]);
    expect(problems.map((p) => p.replace(/^\d+: /, ''))).toEqual([
      `transaction "With CASH" of 2025-01-02: a split names an account the book does not have (${'f'.repeat(32)}); GnuCash's Check & Repair mends such a book`,
    ]);
  });

  it('a split without its value, a posted date that is not one: each named by its line', async () => {
    const file = fileNamed();
    const xml = bookXml(
      { accounts: book.accounts, transactions: book.transactions.slice(0, 2) },
      USD,
    );
    const broken = xml
      .replace('<split:value>1000/100</split:value>', '')
      .replace('<ts:date>2025-01-03 10:59:00 +0000</ts:date>', '<ts:date>someday</ts:date>');
    writeFileSync(file, broken);
    const { problems } = await readAs(file);
    expect(problems.map((p) => p.replace(/^\d+: /, ''))).toEqual([
      'a split without its value, quantity or account',
      'the posted date "someday" is not a date',
    ]);
    const sqlite = fileNamed();
    writeBookSqlite(
      sqlite,
      { accounts: book.accounts, transactions: book.transactions.slice(0, 1) },
      USD,
    );
    const db = new Database(sqlite);
    db.prepare("UPDATE transactions SET post_date = 'someday'").run();
    db.close();
    expect((await readAs(sqlite)).problems).toEqual(['1: the posted date "someday" is not a date']);
  });

  it('refuses what is not a book GnuCash 2 or later wrote, clearly, reading nothing', async () => {
    const cut = fileNamed();
    const whole = gzipSync(
      readFileSync(path.join(dir, 'b1.gnucash')).length > 0 ? 'x'.repeat(10) : '',
    );
    writeBookXml(cut, book, USD, true);
    const bytes = readFileSync(cut);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(formatOf(cut, 'auto')).toBe('gnucash-book');
    const damaged = await readAs(cut);
    expect(damaged.problems).toEqual([
      expect.stringMatching(
        /^\d+: the gzip-compressed data is damaged \(unexpected end of file\): the file was cut short or changed$/,
      ),
    ]);

    const notXml = fileNamed();
    writeFileSync(notXml, whole);
    expect((await readAs(notXml)).problems).toEqual([
      expect.stringMatching(/^1: not well-formed XML/),
    ]);

    const old = fileNamed();
    writeFileSync(
      old,
      '<?xml version="1.0"?>\n<gnc>\n  <version>1</version>\n  <ledger-data>\n  </ledger-data>\n</gnc>\n',
    );
    expect(formatOf(old, 'auto')).toBe('gnucash-book');
    expect((await readAs(old)).problems).toEqual([
      '2: a GnuCash 1.x book (<gnc>): open it in GnuCash 2 or later and save it, then import that',
    ]);

    const other = fileNamed('sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE ledger (day text, amount integer)');
    db.close();
    expect(formatOf(other, 'auto')).toBe('gnucash-book');
    expect((await readAs(other)).problems).toEqual([
      '1: a SQLite database, but not a GnuCash book: it has no accounts, books, commodities, splits, transactions, versions tables',
    ]);

    const truncated = fileNamed();
    writeBookSqlite(truncated, book, USD);
    const sqlite = readFileSync(truncated);
    writeFileSync(truncated, sqlite.subarray(0, 1024));
    expect((await readAs(truncated)).problems).toEqual([
      '1: cannot read the SQLite book: database disk image is malformed',
    ]);
  });
});

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/gnucash');

/** Per account (full name), what the reader posted to it: debits less credits, in cents. */
const postedBy = (entries: Awaited<ReturnType<typeof readLedgerFile>>['entries']) => {
  const totals = new Map<string, number>();
  for (const entry of entries)
    for (const line of entry.lines)
      totals.set(
        line.accountName!,
        (totals.get(line.accountName!) ?? 0) + line.debitCents - line.creditCents,
      );
  return totals;
};

/** GnuCash's balance of an account: the sum of its splits' quantities (SQL, here). */
function sqliteBalances(file: string, currency: string): Map<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const accounts = db
      .prepare(
        'SELECT a.guid, a.name, a.parent_guid AS parent, c.mnemonic FROM accounts a LEFT JOIN commodities c ON c.guid = a.commodity_guid',
      )
      .all() as { guid: string; name: string; parent: string | null; mnemonic: string | null }[];
    const { template } = db.prepare('SELECT root_template_guid AS template FROM books').get() as {
      template: string;
    };
    const byId = new Map(accounts.map((a) => [a.guid, a]));
    const nameOf = (id: string): string | undefined => {
      const a = byId.get(id)!;
      if (!a.parent) return undefined;
      if (a.parent === template) return undefined;
      const parent = nameOf(a.parent);
      return byId.get(a.parent)!.parent
        ? parent === undefined
          ? undefined
          : `${parent}:${a.name}`
        : a.name;
    };
    const balances = new Map<string, number>();
    for (const row of db
      .prepare(
        'SELECT account_guid AS account, SUM(CAST(quantity_num AS REAL) * 100 / quantity_denom) AS cents FROM splits GROUP BY account_guid',
      )
      .all() as { account: string; cents: number }[]) {
      const a = byId.get(row.account)!;
      const name = nameOf(row.account);
      if (name === undefined || a.mnemonic !== currency || Math.round(row.cents) === 0) continue;
      balances.set(name, Math.round(row.cents));
    }
    return balances;
  } finally {
    db.close();
  }
}

describe('real GnuCash books, each read to its own figures', () => {
  it.each([
    ['piecash-simple_sample.gnucash', 'EUR'],
    ['piecash-complex_sample.gnucash', 'EUR'],
    ['piecash-investment.gnucash', 'EUR'],
    ['piecash-all_account_types.gnucash', 'EUR'],
    ['piecash-book_schtx.gnucash', 'EUR'],
    ['piecash-book_prices.gnucash', 'EUR'],
  ])('%s (SQLite): each account in %s at GnuCash’s balance', async (name, currency) => {
    const file = path.join(FIXTURES, name);
    expect(formatOf(file, 'auto')).toBe('gnucash-book');
    const { entries, problems } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    const posted = postedBy(entries);
    const balances = sqliteBalances(file, currency);
    expect(balances.size).toBeGreaterThan(0);
    for (const [account, cents] of balances)
      expect([account, posted.get(account)]).toEqual([account, cents]);
  });

  it.each([
    ['gnucash-4.13-written.gnucash', 'USD', 'gzip-compressed XML'],
    ['gnucash-example-taxreport.gnucash', 'USD', 'XML'],
  ])(
    '%s: each account in %s at the balance GnuCash 4.13 computed',
    async (name, currency, kind) => {
      const file = path.join(FIXTURES, name);
      expect(formatOf(file, 'auto')).toBe('gnucash-book');
      const { entries, problems, notes } = await readLedgerFile(file);
      expect(problems).toEqual([]);
      expect(notes.some((n) => n.startsWith(`GnuCash book (${kind})`))).toBe(true);
      const posted = postedBy(entries);
      const gnucash = JSON.parse(
        readFileSync(path.join(FIXTURES, name.replace('.gnucash', '.balances.json')), 'utf8'),
      ) as Record<string, { balance: string; commodity: string }>;
      let compared = 0;
      for (const [account, { balance, commodity }] of Object.entries(gnucash)) {
        if (commodity !== currency) continue;
        const [num, denom] = balance.split('/').map(Number);
        const cents = Math.round((num! * 100) / denom!);
        const full = account;
        // A parent's own balance (GnuCash's GetBalance leaves its children out).
        expect([full, posted.get(full) ?? 0]).toEqual([full, cents]);
        compared += 1;
      }
      expect(compared).toBeGreaterThan(10);
    },
  );

  it('the GnuCash-written book: its voided check left out, the euro transaction valued by its dollar splits, said', async () => {
    const { notes, entries } = await readLedgerFile(
      path.join(FIXTURES, 'gnucash-4.13-written.gnucash'),
    );
    expect(notes).toEqual(
      expect.arrayContaining([
        'GnuCash: 1 voided transaction left out',
        'GnuCash: 2 transactions in another currency than USD, valued at the rate its splits in USD show',
        'GnuCash: 1 hidden account holds postings, imported: Liabilities:Loan',
      ]),
    );
    const hotel = entries.find((e) => e.memo === 'Paris hotel')!;
    expect(hotel.lines.map((l) => [l.accountName, l.debitCents - l.creditCents])).toEqual([
      ['Expenses:Travel', 21800],
      ['Liabilities:Credit Card', -21800],
    ]);
    const euros = entries.find((e) => e.memo === 'Euro cash')!;
    expect(
      euros.lines.map((l) => [l.accountName, l.debitCents - l.creditCents, l.description]),
    ).toEqual([
      ['Assets:Current Assets:Euro Account', 32700, 'Euro cash (300 EUR)'],
      ['Assets:Current Assets:Checking Account', -32700, 'Euro cash'],
    ]);
  });

  it('a GnuCash 1.x book is refused, saying what reads it', async () => {
    const file = path.join(FIXTURES, 'gnucash-1.x-currency-tree.gnucash');
    expect(formatOf(file, 'auto')).toBe('gnucash-book');
    const { problems, entries } = await readLedgerFile(file);
    expect(entries).toEqual([]);
    expect(problems).toEqual([
      '2: a GnuCash 1.x book (<gnc>): open it in GnuCash 2 or later and save it, then import that',
    ]);
  });
});
