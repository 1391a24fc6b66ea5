import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importIntoNewEntity,
  lazyTemporaryHome,
  runBooks,
  trialBalanceOf,
} from '../helpers/cli.js';
import {
  add,
  bexioTotals,
  centsOf,
  fecTotals,
  infoniqaTotals,
  nonZero,
  xafTotals,
} from '../helpers/fileTotals.js';
import {
  datevFile,
  netOf,
  sampleBooks,
  sieFile,
  xafFile,
  type Books,
} from '../helpers/formatFiles.js';

/*
 * Files as their formats allow them, imported by the built binary into a new entity each, as a
 * user would: the real exports kept in test/fixtures/realworld (see its SOURCES.md), and files
 * written in the test for what those do not show. Each must end at its own figures.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/realworld');
const fixture = (name: string) => path.join(FIXTURES, name);

describe('readers follow the format: files users bring import to their own figures', () => {
  const home = lazyTemporaryHome();
  const books = (...args: string[]) => runBooks(args, home.env);
  beforeAll(async () => {
    expect((await books('workspace', 'create', 'Formats', '--timezone', 'UTC')).code).toBe(0);
  });
  afterAll(() => home.cleanup());

  const importInto = (entity: string, file: string, extra: string[] = []) =>
    importIntoNewEntity(home.env, 'Formats', entity, file, extra);
  const trialBalance = (where: string[]) => trialBalanceOf(home.env, where);
  const written = (name: string, content: string | Buffer) => {
    const file = path.join(home.home, name);
    writeFileSync(file, content);
    return file;
  };
  /** The books' balances by account name, a name two codes share told apart by its code. */
  const byName = (books: Books) => {
    const net = netOf(books);
    const count = new Map<string, number>();
    for (const a of books.accounts) count.set(a.name, (count.get(a.name) ?? 0) + 1);
    const totals = new Map<string, number>();
    for (const a of books.accounts) {
      const cents = net.get(a.code);
      if (cents) totals.set(count.get(a.name)! > 1 ? `${a.name} (${a.code})` : a.name, cents);
    }
    return totals;
  };

  it('unit4-multivers (XAF 3.2, Latin-1 bytes under a UTF-8 declaration): with --encoding latin1 every account ends at its lines', async () => {
    const file = fixture('unit4-multivers_xaf32_2017_bananaaccounting-netherlands.xml');
    const refused = await importInto('multivers-refused', file);
    expect(refused.imported.code).toBe(3);
    expect(refused.imported.stderr).toContain('is not UTF-8, which the file is read as');
    const { imported, where } = await importInto('multivers', file, ['--encoding', 'latin1']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(nonZero(xafTotals(file, 'latin1')));
  });

  it('banana (XAF 3.2 without RGS codes): accTp types each account, by the side of its balance where the Dutch classes cannot', async () => {
    const file = fixture('banana_xaf32_no-rgs_2018_bananaaccounting-netherlands.xml');
    const { imported, where } = await importInto('banana-xaf', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('typed by the side of their balance');
    expect(imported.stderr).toContain('XAF 3.2: 1 journal, 46 transactions, 121 lines');
    expect(imported.stderr).toContain(
      'XAF: the file states transactions linesCount 46, its lines make 121 (46 is its number of transactions): a count, said and not refused; its totals decide',
    );
    expect(await trialBalance(where)).toEqual(nonZero(xafTotals(file)));
  });

  it('bexio 2023 journal: every account ends at the sum of its lines', async () => {
    const file = fixture('bexio_journal_export_2023_bananaaccounting-switzerland.csv');
    const { imported, where } = await importInto('bexio-2023', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(nonZero(bexioTotals(file)));
  });

  it('bexio 2024 account ledger: a U+FFFD between digit groups is the separator it replaced, said', async () => {
    const file = fixture(
      'bexio_account-ledger_lost-separators_2024_bananaaccounting-switzerland.csv',
    );
    const { imported, where } = await importInto('bexio-2024', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(
      /between digit groups of \d+ amounts it stands for the group separator it replaced, and is read so/,
    );
    // The ledger of account 1010: Soll less Haben on it, the other side on its GK account
    // (an account ledger names accounts by number).
    const rows = readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .slice(1)
      .filter((row) => row.trim() !== '')
      .map((row) => row.split(';'));
    const expected = new Map<string, number>();
    const amount = (text: string) => centsOf(text.replace(/\uFFFD/g, '') || '0');
    for (const row of rows) {
      const cents = amount(row[11]!) - amount(row[12]!);
      add(expected, '1010', cents);
      add(expected, row[5]!, -cents);
    }
    expect(await trialBalance(where)).toEqual(nonZero(expected));
  });

  it('infoniqa 2025 journal: every account ends at the sum of its lines', async () => {
    const file = fixture('infoniqa-one50_journal_export_2025_bananaaccounting-switzerland.csv');
    const { imported, where } = await importInto('infoniqa-2025', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(nonZero(infoniqaTotals(file)));
  });

  it('a FEC Banana wrote (decimal points): every account ends at its Debit less Credit', async () => {
    const file = fixture('fec_banana-export_2019_bananaaccounting-europe.txt');
    const { imported, where } = await importInto('fec-2019', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(nonZero(fecTotals(file)));
  });

  it('SIE: a name the chart gives two codes imports as two accounts, "Name (code)"', async () => {
    const ledger = sampleBooks();
    const file = written(
      'two-codes.se',
      sieFile(ledger, { type: '4E', encoding: 'cp437', objects: 'empty', eol: '\r\n' }),
    );
    const { imported, where } = await importInto('sie-two-codes', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(
      '1 name is used by more than one account code in the file, each such account named "Name (code)": "Kundfordringar" (1510, 1511)',
    );
    const balances = await trialBalance(where);
    expect(balances).toEqual(byName(ledger));
    expect(balances.get('Kundfordringar (1511)')).toBe(62_500);
  });

  it('XAF 4.0 without RGS codes: accTp and the side of each balance type it, said with the accounts', async () => {
    const ledger = sampleBooks({ '1510': '1300', '1511': '1301', '1930': '1100', '2081': '0500' });
    const file = written(
      'xaf40.xaf',
      xafFile(ledger, { version: '4.0', rgsIn: 'none', opening: 'undated' }),
    );
    const { imported, where } = await importInto('xaf-40', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('1100 "Företagskonto" Other Current Assets');
    expect(imported.stderr).toContain('0500 "Aktiekapital" Other Current Liabilities');
    expect(await trialBalance(where)).toEqual(byName(ledger));
  });

  it('DATEV 700 at Sachkontenlänge 4 with the client’s chart: 85 is 0085, personal accounts typed, DATEV’s own quotes read', async () => {
    const file = written(
      'EXTF_Buchungsstapel.csv',
      datevFile(
        [
          {
            cents: 119_000,
            konto: '10100',
            gegenkonto: '8000',
            date: '2025-01-15',
            text: 'Rechnung 1',
            beleg: 'RE1',
          },
          {
            cents: 119_000,
            konto: '1200',
            gegenkonto: '10100',
            date: '2025-01-31',
            text: 'Zahlung',
            beleg: 'RE1',
          },
          {
            cents: -50_000,
            konto: '70005',
            gegenkonto: '85',
            date: '2025-02-01',
            text: 'Normalabschr. immater. VermG',
            beleg: 'ER7',
          },
          {
            cents: 50_000,
            konto: '70005',
            gegenkonto: '1200',
            date: '2025-03-02',
            text: 'Zahlung',
            beleg: 'ER7',
          },
        ],
        { version: 700, length: 4, skr: '03', encoding: 'windows-1252', strayQuotes: true },
        { from: '2025-01-01', to: '2025-03-31' },
      ),
    );
    const chart = written(
      'mandant-chart.csv',
      'code,name,type\n85,Immaterielle Vermögensgegenstände,Intangible Assets\n1200,Bank,Cash\n8000,Erlöse,Income\n6001,Miete,Operating Expenses\n',
    );
    const { imported, where } = await importInto('datev-chart', file, ['--chart', chart]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('written with quotes not doubled');
    expect(await trialBalance(where)).toEqual(
      new Map([
        ['Erlöse', -119_000],
        ['Bank', 69_000],
        ['Immaterielle Vermögensgegenstände', 50_000],
      ]),
    );
  });

  it('QuickBooks Desktop’s Transaction Detail by Date, with a chart: every account at its rows', async () => {
    const rows = [
      ',,Blue Bottle Bakery,,,,,,,,,',
      ',,Transaction Detail by Date,,,,,,,,,',
      ',,"January 2025",,,,,,,,,',
      ',,Type,Date,Num,Name,Memo,Account,Clr,Split,Amount,Balance',
      ',,Check,01/03/2025,1001,Landlord LLC,January rent,1000 · Checking,,6100 · Rent,"-1,500.00","-1,500.00"',
      ',,Check,01/03/2025,1001,Landlord LLC,January rent,6100 · Rent,,1000 · Checking,"1,500.00",0.00',
      ',,Invoice,01/15/2025,71,Customer A,,1200 · Accounts Receivable,,-SPLIT-,"2,150.00","2,150.00"',
      ',,Invoice,01/15/2025,71,Customer A,Cakes,4000 · Sales,,1200 · Accounts Receivable,"-2,000.00",150.00',
      ',,Invoice,01/15/2025,71,Customer A,Tax,2200 · Sales Tax Payable,,1200 · Accounts Receivable,-150.00,0.00',
      ',,Deposit,01/20/2025,,,Deposit,1000 · Checking,,1200 · Accounts Receivable,"2,150.00","2,150.00"',
      ',,Deposit,01/20/2025,,Customer A,,1200 · Accounts Receivable,,1000 · Checking,"-2,150.00",0.00',
      ',TOTAL,,,,,,,,,0.00,0.00',
    ];
    const file = written('transaction-detail.csv', rows.join('\r\n') + '\r\n');
    const chart = written(
      'qb-chart.csv',
      'code,name,type\n1000,Checking,Cash\n6100,Rent,Operating Expenses\n1200,Accounts Receivable,Accounts Receivable\n4000,Sales,Income\n2200,Sales Tax Payable,Other Current Liabilities\n',
    );
    const { imported, where } = await importInto('qb-detail', file, ['--chart', chart]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(
      'read as a QuickBooks Desktop Transaction Detail by Date report',
    );
    expect(await trialBalance(where)).toEqual(
      new Map([
        ['Checking', 65_000],
        ['Rent', 150_000],
        ['Sales', -200_000],
        ['Sales Tax Payable', -15_000],
      ]),
    );
  });

  it('a bexio journal grouped as de-CH writes thousands (1’250.50), an apostrophe or a no-break space: read', async () => {
    const header =
      'Datum;Referenz;Soll;Haben;Beschreibung;Betrag;Buchungswährung;Umrechnungsfaktor;Betrag in Basiswährung;Währung in Basiswährung';
    const text = [
      header,
      '02.01.2024;R1;1100 - Forderungen;3200 - Warenerlöse;Verkauf;1’250.50;CHF;1;1’250.50;CHF',
      "03.01.2024;R2;1020 - Bank;1100 - Forderungen;Zahlung;1'250.50;CHF;1;1'250.50;CHF",
      '04.01.2024;R3;6000 - Miete;1020 - Bank;Miete;2\u00a0000.00;CHF;1;2\u00a0000.00;CHF',
    ].join('\r\n');
    const file = written('bexio-grouped.csv', Buffer.from(text + '\r\n'));
    const { imported, where } = await importInto('bexio-grouped', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(
      new Map([
        ['Warenerlöse', -125_050],
        ['Bank', -74_950],
        ['Miete', 200_000],
      ]),
    );
  });

  it('GnuCash books (the 4.13-written gzip XML, a SQLite one): every account in the book’s currency at GnuCash’s balance', async () => {
    const gnucash = path.resolve(import.meta.dirname, '../fixtures/gnucash');
    const written413 = path.join(gnucash, 'gnucash-4.13-written.gnucash');
    const { imported, where } = await importInto('gnucash-book', written413);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as a GnuCash book');
    const balances = JSON.parse(
      readFileSync(path.join(gnucash, 'gnucash-4.13-written.balances.json'), 'utf8'),
    ) as Record<string, { balance: string; commodity: string }>;
    const tb = await trialBalance(where);
    for (const [account, { balance, commodity }] of Object.entries(balances)) {
      if (commodity !== 'USD') continue;
      const [num, denom] = balance.split('/').map(Number);
      expect([account, tb.get(account) ?? 0]).toEqual([account, Math.round((num! * 100) / denom!)]);
    }
    const sqlite = await importInto(
      'gnucash-sqlite',
      path.join(gnucash, 'piecash-complex_sample.gnucash'),
    );
    expect(sqlite.imported.code, sqlite.imported.stderr).toBe(0);
    expect(await trialBalance(sqlite.where)).toEqual(
      new Map([
        ['Asset:Current:Cash', 22_000],
        ['Asset:Current:Checking', 82_000],
        ['Asset:Current:Savings', 355_000],
        ['Asset:Fixed:House', 2_000_000],
        ['Asset:Broker:Foo stock', 120_000],
        ['Liability', -2_090_000],
        ['Equity:Opening Balances - EUR', -500_000],
        ['Mouvements:CURRENCY:EUR5', 120_000],
        ['Mouvements:NASDAQ:FOO', -120_000],
        ['Income', -15_000],
        ['Expense', 26_000],
      ]),
    );
  });

  it('a damaged GnuCash book, and a GnuCash 1.x one: exit 3, the reason said, nothing posted', async () => {
    const gnucash = path.resolve(import.meta.dirname, '../fixtures/gnucash');
    const bytes = readFileSync(path.join(gnucash, 'gnucash-4.13-written.gnucash'));
    const cut = written('cut.gnucash', bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    for (const [entity, file, reason] of [
      ['gnucash-cut', cut, 'the gzip-compressed data is damaged'],
      [
        'gnucash-1x',
        path.join(gnucash, 'gnucash-1.x-currency-tree.gnucash'),
        'a GnuCash 1.x book (<gnc>): open it in GnuCash 2 or later and save it',
      ],
    ] as const) {
      const { imported, where } = await importInto(entity, file);
      expect(imported.code, imported.stderr).toBe(3);
      expect(imported.stderr).toContain(reason);
      expect(imported.stderr).not.toMatch(/\n\s+at /);
      const listed = await books('je', 'list', '-o', 'json', ...where);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([]);
    }
  });

  it('a German GnuCash export (its column names, 31.12.2025, 1.234,56): every account at its splits', async () => {
    const { gnucashCsv, GNUCASH_413_NAMES, LOCALES } = await import('../helpers/gnucashFiles.js');
    const text = gnucashCsv(
      [
        {
          id: 'a'.repeat(32),
          day: '2025-12-31',
          description: 'Miete Dezember',
          currency: 'EUR',
          splits: [
            { account: 'Aufwendungen:Miete', value: 123_456 },
            { account: 'Aktiva:Girokonto', value: -123_456 },
          ],
        },
        {
          id: 'b'.repeat(32),
          day: '2025-12-13',
          description: 'Honorar',
          currency: 'EUR',
          splits: [
            { account: 'Aktiva:Girokonto', value: 500_000 },
            { account: 'Erträge:Honorare', value: -500_000 },
          ],
        },
      ],
      {
        layout: '4.x',
        locale: LOCALES.de_DE!,
        names: GNUCASH_413_NAMES.de!.names,
        delimiter: ';',
      },
    );
    const { imported, where } = await importInto('gnucash-de', written('gnucash-de.csv', text));
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('GnuCash: the header is in German');
    expect(await trialBalance(where)).toEqual(
      new Map([
        ['Aufwendungen:Miete', 123_456],
        ['Aktiva:Girokonto', 376_544],
        ['Erträge:Honorare', -500_000],
      ]),
    );
  });
});
