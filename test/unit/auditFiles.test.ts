import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { taxIncluded, type Cents } from '../../src/core/money.js';
import { datevDay } from '../../src/formats/datev/reader.js';
import { skrType } from '../../src/formats/datev/skr.js';
import { formatOf } from '../../src/formats/reader.js';
import { basType, sieFields } from '../../src/formats/sie/reader.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

/*
 * The audit files tax law asks for: SAF-T, XAF, SIE 4, DATEV. Real files, changed here in
 * copies to show the file checks the import: the XAF (Apache-2.0) and the SIE (GPL-3.0) are kept
 * in test/fixtures/realworld (see its SOURCES.md); Skatteetaten's SAF-T example states no licence,
 * so it is read from ../shared/realworld/ and its tests are skipped, saying so, where it is not.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/realworld');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/realworld/files');
const SAFT = path.join(SHARED, 'saft-no_financial-example-888888888_skatteetaten.xml');
const XAF = path.join(
  FIXTURES,
  'exact-online_xaf32_auditfile_2016_bananaaccounting-netherlands.xml',
);
const SIE = path.join(FIXTURES, 'sie4_bl-administration_ovningsforetaget-2017_blinfo-sie4j.se');
const saftPresent = existsSync(SAFT);
if (!saftPresent)
  console.warn(
    `skipped: Skatteetaten's SAF-T example is not at ${SAFT} (it states no licence: it is read from the project's ../shared/realworld/files, not kept here)`,
  );

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const copyOf = (text: string | Buffer, extension: string) => {
  const file = path.join(dir, `f${(count += 1)}.${extension}`);
  writeFileSync(file, text);
  return file;
};

describe('the file checks the import', () => {
  it.skipIf(!saftPresent)(
    'SAF-T: the real file reads, its three contradicting accounts said',
    async () => {
      expect(formatOf(SAFT, 'auto')).toBe('saft');
      const { problems, notes, entries } = await readLedgerFile(SAFT, { offsetAccount: 'Offset' });
      expect(problems).toEqual([]);
      expect(entries).toHaveLength(54);
      expect(entries[0]!.entry).toBe('opening balances');
      expect(notes.filter((n) => n.includes('the file contradicts itself'))).toEqual([
        'SAF-T: account 1920 Bankinnskudd: the file states a closing balance of 670,568.75, its opening balance and lines make 724,407.00 (the file contradicts itself; its lines are imported)',
        'SAF-T: account 2711 Inngående merverdiavgift, middels sats: the file states a closing balance of 0.00, its opening balance and lines make -0.35 (the file contradicts itself; its lines are imported)',
        'SAF-T: account 2740 Oppgjørskonto merverdiavgift: the file states a closing balance of 0.00, its opening balance and lines make 0.35 (the file contradicts itself; its lines are imported)',
      ]);
      expect(notes).toContain(
        'SAF-T: the opening balances do not net to zero; Offset (--offset-account) took 2,545,410.00 as a credit',
      );
    },
  );

  it.skipIf(!saftPresent)(
    'SAF-T: opening balances that do not net are a problem without --offset-account',
    async () => {
      const { problems } = await readLedgerFile(SAFT);
      expect(problems).toEqual([
        '46: the opening balances do not net to zero: debits exceed credits by 2,545,410.00; pass --offset-account ACCOUNT to take the difference (made as Equity with --create-missing-accounts)',
      ]);
    },
  );

  it.skipIf(!saftPresent)(
    'SAF-T: a transaction cut out, or an amount changed, is refused by its own totals',
    async () => {
      const text = readFileSync(SAFT, 'utf8');
      const first = text.indexOf('<n1:Transaction>');
      const second = text.indexOf('<n1:Transaction>', first + 1);
      const cut = await readLedgerFile(copyOf(text.slice(0, first) + text.slice(second), 'xml'), {
        offsetAccount: 'Offset',
      });
      expect(cut.problems).toEqual([
        '1094: the file states TotalDebit 9,487,049.35, its lines make 9,474,549.35: the file is cut or was changed',
        '1095: the file states TotalCredit 9,487,049.35, its lines make 9,474,549.35: the file is cut or was changed',
      ]);
      // The count is said, not refused: money decides.
      expect(cut.notes).toContain(
        'SAF-T: the file states NumberOfEntries 53, its lines make 52: a count, said and not refused; its totals decide',
      );
      // Transaction 1001 made 100.00 larger on both sides: it still balances; the totals do not.
      const changed = text
        .replace('<n1:Amount>12500</n1:Amount>', '<n1:Amount>12600</n1:Amount>')
        .replace(/(<n1:DebitAmount>\s*<n1:Amount>)10000(<)/, '$110100$2');
      const edited = await readLedgerFile(copyOf(changed, 'xml'), { offsetAccount: 'Offset' });
      expect(edited.problems).toEqual([
        '1094: the file states TotalDebit 9,487,049.35, its lines make 9,487,149.35: the file is cut or was changed',
        '1095: the file states TotalCredit 9,487,049.35, its lines make 9,487,149.35: the file is cut or was changed',
      ]);
    },
  );

  it.skipIf(!saftPresent)(
    'SAF-T: a file cut in the middle of its XML is refused at its line',
    async () => {
      const bytes = readFileSync(SAFT);
      const { problems } = await readLedgerFile(
        copyOf(bytes.subarray(0, bytes.length / 2), 'xml'),
        {
          offsetAccount: 'Offset',
        },
      );
      expect(problems.at(-1)).toMatch(/^\d+: not well-formed XML: /);
    },
  );

  it('XAF: reads, typed by RGS or the Dutch chart; an amount changed is refused', async () => {
    expect(formatOf(XAF, 'auto')).toBe('xaf');
    const read = await readLedgerFile(XAF);
    expect(read.problems).toEqual([]);
    expect(read.entries).toHaveLength(57);
    expect(read.entries.flatMap((e) => e.lines).filter((l) => !l.accountType)).toEqual([]);
    const text = readFileSync(XAF, 'utf8');
    const changed = text.replace('<amnt>15000.00</amnt>', '<amnt>15100.00</amnt>');
    const edited = await readLedgerFile(copyOf(changed, 'xml'));
    expect(edited.problems).toEqual([
      '1384: the file states transactions totalDebit 999,954.06, its lines make 1,000,054.06: the file is cut or was changed',
      '1391: transaction 10 16100001 (lines 1391-1412) does not balance: 100.00 left over',
    ]);
    const first = text.indexOf('<transaction>');
    const second = text.indexOf('<transaction>', first + 1);
    const cut = await readLedgerFile(copyOf(text.slice(0, first) + text.slice(second), 'xml'));
    expect(cut.problems).toEqual([
      '1384: the file states transactions totalDebit 999,954.06, its lines make 984,954.06: the file is cut or was changed',
      '1385: the file states transactions totalCredit 999,954.06, its lines make 984,954.06: the file is cut or was changed',
    ]);
  });

  it('XAF: opening balances from openingBalance, checked by its own totals', async () => {
    const text = readFileSync(XAF, 'utf8').replace(
      '<transactions>',
      `<openingBalance><opBalDate>2016-01-01</opBalDate><linesCount>2</linesCount><totalDebit>500.00</totalDebit><totalCredit>500.00</totalCredit>
        <obLine><nr>1</nr><accID>1000</accID><amnt>500.00</amnt><amntTp>D</amntTp></obLine>
        <obLine><nr>2</nr><accID>0300</accID><amnt>500.00</amnt><amntTp>C</amntTp></obLine>
      </openingBalance><transactions>`,
    );
    const { problems, entries, notes } = await readLedgerFile(copyOf(text, 'xml'));
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ entry: 'opening balances', date: '2016-01-01' });
    expect(entries[0]!.lines.map((l) => [l.accountCode, l.debitCents, l.creditCents])).toEqual([
      ['0300', 0, 50_000],
      ['1000', 50_000, 0],
    ]);
    expect(notes).toContain(
      'XAF: the opening balances of 2 accounts posted as one entry on 2016-01-01, the first day of its period',
    );
  });

  it('SIE: reads in CP437; a changed pair of rows is said against #UB and #RES, and read', async () => {
    expect(formatOf(SIE, 'auto')).toBe('sie');
    const read = await readLedgerFile(SIE, { offsetAccount: 'Offset' });
    expect(read.problems).toEqual([]);
    expect(read.entries[1]!.lines[0]!.accountName).toBe('Checkräkningskonto');
    expect(read.notes).toContain('SIE: 276 #PBUDGET rows (budgets) left out');
    expect(read.notes).toContain('encoding CP437 (PC8, as SIE files are written)');
    const text = iconv
      .decode(readFileSync(SIE), 'cp437')
      .replace('#TRANS 1930 {} -1000.00 20170101 ""', '#TRANS 1930 {} -1100.00 20170101 ""')
      .replace('#TRANS 6072 {} 928.00 20170101 ""', '#TRANS 6072 {} 1028.00 20170101 ""');
    const edited = await readLedgerFile(copyOf(iconv.encode(text, 'cp437'), 'se'), {
      offsetAccount: 'Offset',
    });
    // A SIE file states no totals: its closing balances are said, as a count would be.
    expect(edited.problems).toEqual([]);
    expect(edited.result.fileChecks.map((c) => c.message)).toEqual([
      'SIE: the opening balances do not net to zero; Offset (--offset-account) took 187,195.27 as a debit',
      expect.stringMatching(
        /^SIE: account 1930 Checkräkningskonto: the file states #UB 0 [-\d,.]+, its #IB 0 and lines make [-\d,.]+ \(the file contradicts itself; its lines are imported\)$/,
      ),
      expect.stringMatching(
        /^SIE: account 6072 .+: the file states #RES 0 [-\d,.]+, its lines make [-\d,.]+ \(the file contradicts itself; its lines are imported\)$/,
      ),
    ]);
  });
});

describe('SIE 4 by its description', () => {
  it('fields: quoted ones keep their backslashes, \\" is a quote, {} lists whole', () => {
    expect(sieFields('#TRANS 7820 {1 "456"} 1666.00 20170131 "1110\\1002 Hus 1:1"')).toEqual([
      '#TRANS',
      '7820',
      '{1 "456"}',
      '1666.00',
      '20170131',
      '1110\\1002 Hus 1:1',
    ]);
    expect(sieFields('#KONTO 1910 "Kassa \\"A\\""')).toEqual(['#KONTO', '1910', 'Kassa "A"']);
  });

  it('#RTRANS is read and the #TRANS repeating it skipped; #BTRANS left out', async () => {
    const file = copyOf(
      iconv.encode(
        [
          '#FLAGGA 0',
          '#FORMAT PC8',
          '#RAR 0 20250101 20251231',
          '#KONTO 1930 "Företagskonto"',
          '#KONTO 3010 "Försäljning"',
          '#KONTO 6110 "Kontorsmateriel"',
          '#VER A 1 20250105 "Försäljning"',
          '{',
          '#TRANS 1930 {} 500.00',
          '#TRANS 3010 {} -500.00',
          '#BTRANS 6110 {} 10.00',
          '#RTRANS 6110 {} 20.00 20250105 "tillagd"',
          '#TRANS 6110 {} 20.00 20250105 "tillagd"',
          '#RTRANS 1930 {} -20.00 20250105 "tillagd"',
          '#TRANS 1930 {} -20.00 20250105 "tillagd"',
          '}',
          '#UB 0 1930 480.00',
          '#RES 0 3010 -500.00',
          '#RES 0 6110 20.00',
        ].join('\r\n'),
        'cp437',
      ),
      'se',
    );
    const { problems, entries, notes } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => [l.accountName, l.debitCents - l.creditCents])).toEqual([
      ['Företagskonto', 50_000],
      ['Försäljning', -50_000],
      ['Kontorsmateriel', 2_000],
      ['Företagskonto', -2_000],
    ]);
    expect(notes).toContain('SIE: 1 #BTRANS rows (struck out) left out');
  });

  const sieOf = (rows: string[]) =>
    copyOf(
      iconv.encode(
        [
          '#FLAGGA 0',
          '#FORMAT PC8',
          '#RAR 0 20250101 20251231',
          '#KONTO 1910 "Kassa"',
          '#KONTO 2640 "Ingående moms"',
          '#KONTO 6110 "Kontorsmateriel"',
          '#KONTO 6250 "Porto"',
          ...rows,
        ].join('\r\n'),
        'cp437',
      ),
      'se',
    );
  const voucherLines = (entry: {
    lines: { accountCode?: string | undefined; debitCents: number; creditCents: number }[];
  }) => entry.lines.map((l) => [l.accountCode, l.debitCents - l.creditCents]);

  it('SIE 4B’s own examples of #RTRANS and #BTRANS read as it says a reader that handles them reads them', async () => {
    const added = sieOf([
      '#VER "" "" 20080101 "Porto"',
      '{',
      '#TRANS 1910 { } -1200.00',
      '#TRANS 2640 { } 240.00',
      '#TRANS 6250 { } 960.00',
      '#RTRANS 1910 { } 200.00',
      '#TRANS 1910 { } 200.00',
      '#RTRANS 2640 { } -40.00',
      '#TRANS 2640 { } -40.00',
      '#RTRANS 6250 { } -160.00',
      '#TRANS 6250 { } -160.00',
      '}',
    ]);
    const read = await readLedgerFile(added);
    expect(read.problems).toEqual([]);
    expect(voucherLines(read.entries[0]!)).toEqual([
      ['1910', -120_000],
      ['2640', 24_000],
      ['6250', 96_000],
      ['1910', 20_000],
      ['2640', -4_000],
      ['6250', -16_000],
    ]);
    const removed = sieOf([
      '#VER "" "" 20080101 "Porto"',
      '{',
      '#TRANS 1910 { } -1000.00',
      '#TRANS 2640 { } 200.00',
      '#BTRANS 6110 { } 800.00',
      '#RTRANS 6250 { } 800.00',
      '#TRANS 6250 { } 800.00',
      '}',
    ]);
    const again = await readLedgerFile(removed);
    expect(again.problems).toEqual([]);
    expect(voucherLines(again.entries[0]!)).toEqual([
      ['1910', -100_000],
      ['2640', 20_000],
      ['6250', 80_000],
    ]);
  });

  it('an #RTRANS with its signer (Fortnox) and the #TRANS repeating it without: one row, the voucher balanced', async () => {
    // Refused before as "218.00 left over": the pair was compared field for field.
    const file = sieOf([
      '#VER A 12 20250105 "Porto" 20250110',
      '{',
      '#TRANS 1910 {} -1090.00 20250105 "Porto"',
      '#TRANS 2640 {} 218.00 20250105 "Porto"',
      '#TRANS 6250 {} 872.00 20250105 "Porto"',
      '#RTRANS 2640 {} 218.00 20250105 "Porto" 0 "Anna Andersson"',
      '#TRANS 2640 {} 218 20250105 "Porto"',
      '#RTRANS 2640 {} -218.00 20250105 "" 0 "Anna Andersson"',
      '#TRANS 2640 {} -218.00',
      '}',
    ]);
    const { problems, entries } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(voucherLines(entries[0]!)).toEqual([
      ['1910', -109_000],
      ['2640', 21_800],
      ['6250', 87_200],
      ['2640', 21_800],
      ['2640', -21_800],
    ]);
  });

  it('a #VER whose { its producer left out is read to its }, and said', async () => {
    // Refused before: "#TRANS outside a voucher" for each of its rows.
    const file = sieOf([
      '#VER A 1 20250105 "Porto"',
      '#TRANS 1910 {} -100.00',
      '#TRANS 6250 {} 100.00',
      '}',
      '#VER A 2 20250106 "Porto"',
      '{',
      '#TRANS 1910 {} -50.00',
      '#TRANS 6250 {} 50.00',
      '}',
    ]);
    const { problems, entries, notes } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.entry, e.date, voucherLines(e)])).toEqual([
      [
        'A 1',
        '2025-01-05',
        [
          ['1910', -10_000],
          ['6250', 10_000],
        ],
      ],
      [
        'A 2',
        '2025-01-06',
        [
          ['1910', -5_000],
          ['6250', 5_000],
        ],
      ],
    ]);
    expect(notes).toContain(
      'SIE: 1 #VER row without its { (the producer left it out): its #TRANS rows read to the }',
    );
  });

  it('SIE type 1 (balances only): the opening balances and an entry of the year that makes #UB 0 and #RES 0', async () => {
    // Before, the opening balances alone were read, and every #UB and #RES said to contradict them.
    const file = sieOf([
      '#SIETYP 1',
      '#KONTO 2081 "Aktiekapital"',
      '#KONTO 3010 "Försäljning"',
      '#IB 0 1910 1000.00',
      '#IB 0 2081 -1000.00',
      '#UB 0 1910 1700.00',
      '#UB 0 2640 50.00',
      '#UB 0 2081 -1000.00',
      '#RES 0 3010 -1000.00',
      '#RES 0 6250 250.00',
    ]);
    const { problems, entries, notes, result } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.date, voucherLines(e)])).toEqual([
      [
        '2025-01-01',
        [
          ['1910', 100_000],
          ['2081', -100_000],
        ],
      ],
      [
        '2025-12-31',
        [
          ['1910', 70_000],
          ['2640', 5_000],
          ['3010', -100_000],
          ['6250', 25_000],
        ],
      ],
    ]);
    expect(notes).toContain(
      "SIE: SIE type 1: balances only, no vouchers: read as the opening balances (#IB 0) and one entry of the year's changes on 2025-12-31 (#UB 0 less #IB 0, #RES 0)",
    );
    expect(result.fileChecks).toEqual([]);
  });

  it('a file of balances only that names no year: nothing dates its year, said', async () => {
    const file = copyOf(
      iconv.encode(
        [
          '#FLAGGA 0',
          '#SIETYP 1',
          '#KONTO 1910 "Kassa"',
          '#UB 0 1910 100.00',
          '#RES 0 3010 -100.00',
        ].join('\r\n'),
        'cp437',
      ),
      'se',
    );
    expect((await readLedgerFile(file)).problems).toEqual([
      '1: the file has balances but no vouchers and no year (#RAR 0): nothing dates them',
    ]);
  });

  it('SIE type 2: an entry of each period’s changes (#PSALDO), where they make the year', async () => {
    const file = sieOf([
      '#SIETYP 2',
      '#KONTO 3010 "Försäljning"',
      '#IB 0 1910 1000.00',
      '#IB 0 6110 0',
      '#UB 0 1910 1750.00',
      '#RES 0 3010 -1000.00',
      '#RES 0 6250 250.00',
      '#PSALDO 0 202501 1910 {} 400.00',
      '#PSALDO 0 202501 3010 {} -400.00',
      '#PSALDO 0 202503 1910 {} 350.00',
      '#PSALDO 0 202503 3010 {} -600.00',
      '#PSALDO 0 202503 6250 {} 250.00',
      '#PSALDO 0 202503 6250 {1 "7"} 250.00',
    ]);
    const { problems, entries, notes } = await readLedgerFile(file, { offsetAccount: '2099' });
    expect(problems).toEqual([]);
    expect(entries.slice(1).map((e) => [e.date, voucherLines(e)])).toEqual([
      [
        '2025-01-31',
        [
          ['1910', 40_000],
          ['3010', -40_000],
        ],
      ],
      [
        '2025-03-31',
        [
          ['1910', 35_000],
          ['3010', -60_000],
          ['6250', 25_000],
        ],
      ],
    ]);
    expect(notes).toContain(
      "SIE: SIE type 2: balances only, no vouchers: read as the opening balances (#IB 0) and an entry of each period's changes (#PSALDO), 2 in all",
    );
  });

  it('types by #KTYP within the BAS classes', () => {
    expect(basType('1930')).toBe('Cash');
    expect(basType('2440')).toBe('Accounts Payable');
    expect(basType('3010')).toBe('Income');
    expect(basType('1930', 'S')).toBe('Other Current Liabilities');
    expect(basType('8310', 'I')).toBe('Other Income');
  });
});

/** A DATEV Buchungsstapel as DATEV writes one: its header, the column names, bookings. */
function datevFile(rows: string[], skr = '03'): string {
  const header = `"EXTF";700;21;"Buchungsstapel";13;20250110120000000;;"";"";"";1001;20001;20250101;4;20250101;20251231;"Januar";"";1;0;0;"EUR";;"";;;"${skr}";;;"";""`;
  const columns =
    'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Kurs;Basis-Umsatz;WKZ Basis-Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;Belegfeld 2;Skonto;Buchungstext';
  return copyOf(iconv.encode([header, columns, ...rows].join('\r\n'), 'windows-1252'), 'csv');
}

describe('DATEV Buchungsstapel', () => {
  const rows = [
    '119,00;"S";"EUR";;;;1200;8400;"";1501;"R1";"";;"Verkauf 19 %"',
    '107,00;"S";"EUR";;;;1200;8300;"";1601;"R2";"";;"Verkauf 7 %"',
    '59,50;"H";"EUR";;;;1200;4930;"9";1701;"E1";"";;"Bürobedarf"',
    '119,00;"S";"EUR";;;;1200;8400;"23";1801;"R1S";"";;"Storno R1"',
    '238,00;"S";"EUR";;;;1200;8400;"";1901;"R3";"";2,38;"Verkauf mit Skonto"',
  ];

  it('without --datev-vat: every row that implies VAT is listed, with both ways out', async () => {
    const { problems } = await readLedgerFile(datevFile(rows));
    expect(problems).toHaveLength(5);
    expect(problems[0]).toBe(
      '3: automatic account 8400 (SKR03): DATEV would post more than the row (VAT, a discount) and the file does not carry it; pass --datev-vat gross to post each row as written, or --datev-vat split to post the VAT of tax keys 2, 3, 8, 9, 19 and 94 and of the automatic accounts',
    );
  });

  it('--datev-vat split posts the VAT DATEV would; the Skonto row stays a problem', async () => {
    const { problems, entries, notes } = await readLedgerFile(datevFile(rows), {
      datevVat: 'split',
    });
    expect(problems).toEqual([
      '7: Skonto 2,38: --datev-vat split posts only tax keys 2, 3, 8, 9 (with Berichtigungsschlüssel 2 or 4), 19 and 94, and the 7 % and 19 % automatic accounts; post this row by hand, or use --datev-vat gross',
    ]);
    const posted = entries.map((e) => [
      e.date,
      e.lines.map((l) => [l.accountCode, l.debitCents - l.creditCents]),
    ]);
    expect(posted).toEqual([
      [
        '2025-01-15',
        [
          ['1200', 11_900],
          ['8400', -10_000],
          ['1776', -1_900],
        ],
      ],
      [
        '2025-01-16',
        [
          ['1200', 10_700],
          ['8300', -10_000],
          ['1771', -700],
        ],
      ],
      [
        '2025-01-17',
        [
          ['1200', -5_950],
          ['4930', 5_000],
          ['1576', 950],
        ],
      ],
      [
        '2025-01-18',
        [
          ['1200', -11_900],
          ['8400', 10_000],
          ['1776', 1_900],
        ],
      ],
    ]);
    expect(notes).toContain(
      'DATEV: the VAT of 4 rows posted to the VAT accounts of SKR03 (--datev-vat split)',
    );
    expect(entries.flatMap((e) => e.lines).every((l) => l.accountType !== undefined)).toBe(true);
    // The net and the VAT carry the tax code of books' German preset the key means; the money
    // side carries none.
    expect(entries.map((e) => e.lines.map((l) => l.taxCode ?? null))).toEqual([
      [null, 'USt19', 'USt19'],
      [null, 'USt7', 'USt7'],
      [null, 'VSt19', 'VSt19'],
      [null, 'USt19', 'USt19'],
    ]);
  });

  it('--datev-vat split takes the rate of the day: 16 % and 5 % from July to December 2020', async () => {
    const header = `"EXTF";700;21;"Buchungsstapel";13;20210110120000000;;"";"";"";1001;20001;20200101;4;20200101;20201231;"2020";"";1;0;0;"EUR";;"";;;"03";;;"";""`;
    const columns =
      'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Kurs;Basis-Umsatz;WKZ Basis-Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;Belegfeld 2;Skonto;Buchungstext';
    const file = copyOf(
      iconv.encode(
        [
          header,
          columns,
          '119,00;"S";"";;;"";1200;8400;"";3006;"A";"";;"Juni"',
          '116,00;"S";"";;;"";1200;8400;"";0107;"B";"";;"Juli"',
          '105,00;"S";"";;;"";1200;8300;"";3112;"C";"";;"Dezember"',
          '107,00;"S";"";;;"";1200;8300;"";0101;"D";"";;"Januar"',
        ].join('\r\n'),
        'windows-1252',
      ),
      'csv',
    );
    const { problems, entries } = await readLedgerFile(file, { datevVat: 'split' });
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.date, e.lines.map((l) => l.debitCents - l.creditCents)])).toEqual([
      ['2020-06-30', [11_900, -10_000, -1_900]],
      ['2020-07-01', [11_600, -10_000, -1_600]],
      ['2020-12-31', [10_500, -10_000, -500]],
      ['2020-01-01', [10_700, -10_000, -700]],
    ]);
  });

  it('--datev-vat gross posts each row as written, and counts them', async () => {
    const { problems, entries, notes } = await readLedgerFile(datevFile(rows), {
      datevVat: 'gross',
    });
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(5);
    expect(notes).toContain(
      'DATEV: 5 rows with a tax key, a Skonto or an automatic account posted as written (--datev-vat gross): the VAT DATEV would post beside them is not posted',
    );
  });

  it('a row in another currency posts its Basis-Umsatz', async () => {
    const { entries, problems } = await readLedgerFile(
      datevFile(['110,00;"S";"USD";1,1;100,00;"EUR";1200;2700;"";1501;"U1";"";;"in Dollar"']),
    );
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => [l.accountCode, l.debitCents - l.creditCents])).toEqual([
      ['1200', 10_000],
      ['2700', -10_000],
    ]);
  });

  it('is read as UTF-8 when its bytes are, even with a character cut by the first megabyte', async () => {
    const header = `"EXTF";700;21;"Buchungsstapel";13;20250110120000000;;"";"";"";1001;20001;20250101;4;20250101;20251231;"";"";1;0;0;"EUR";;"";;;"03"`;
    const columns =
      'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;Buchungstext';
    const row = (text: string) => `1,00;"S";1200;4930;"";1501;"B";"${text}"\r\n`;
    const filler = row('Porto');
    const head = `${header}\r\n${columns}\r\n`;
    const rows = Math.floor(((1 << 20) - 200 - Buffer.byteLength(head)) / filler.length);
    let text = head + filler.repeat(rows);
    // The last row's ü (two bytes in UTF-8) starts on the megabyte's last byte.
    const start = Buffer.byteLength(text) + row('').indexOf('""\r') + 1;
    text += row(`${'x'.repeat((1 << 20) - 1 - start - 1)}Bürobedarf`);
    expect(Buffer.from(text)[(1 << 20) - 1]).toBe(0xc3);
    const { problems, entries, notes } = await readLedgerFile(copyOf(text, 'csv'));
    expect(problems).toEqual([]);
    expect(entries.at(-1)!.lines[0]!.description).toMatch(/xBürobedarf$/);
    expect(notes.some((n) => n.includes('utf-8'))).toBe(true);
  });

  it('Belegdatum TTMM reads in the period, across two calendar years', () => {
    expect(datevDay('3112', '2024-07-01', '2025-06-30')).toBe('2024-12-31');
    expect(datevDay('0301', '2024-07-01', '2025-06-30')).toBe('2025-01-03');
    expect(datevDay('301', '2025-01-01', '2025-12-31')).toBe('2025-01-03');
    expect(datevDay('3102', '2025-01-01', '2025-12-31')).toBeUndefined();
  });

  it('refuses other categories by name; types by SKR03 and SKR04', async () => {
    const file = copyOf(
      '"EXTF";700;16;"Debitoren/Kreditoren";5;20250110120000000;;"";"";"";1001;20001;20250101;4\r\n',
      'csv',
    );
    expect((await readLedgerFile(file)).problems).toEqual([
      '1: a DATEV file of category 16 (Debitoren/Kreditoren): books reads category 21, Buchungsstapel (bookings)',
    ]);
    expect(skrType('1200', '03')).toBe('Cash');
    expect(skrType('8400', '03')).toBe('Income');
    expect(skrType('1776', '03')).toBe('Other Current Liabilities');
    expect(skrType('4400', '04')).toBe('Income');
    expect(skrType('1800', '04')).toBe('Cash');
  });

  it('VAT in a gross amount, rounded half up', () => {
    expect(taxIncluded(11_900 as Cents, 19)).toBe(1_900);
    expect(taxIncluded(100 as Cents, 19)).toBe(16);
    expect(taxIncluded(-5_950 as Cents, 19)).toBe(-950);
  });
});

describe('encodings said, never guessed', () => {
  const xml = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<n1:AuditFile xmlns:n1="urn:StandardAuditFile-Taxation-Financial:NO">\n<n1:Header><n1:SelectionCriteria><n1:PeriodStart>1</n1:PeriodStart><n1:PeriodStartYear>2025</n1:PeriodStartYear></n1:SelectionCriteria></n1:Header>\n${body}\n</n1:AuditFile>\n`;
  const body =
    '<n1:MasterFiles><n1:GeneralLedgerAccounts><n1:Account><n1:AccountID>1920</n1:AccountID><n1:AccountDescription>Bankinnskudd Ærlig</n1:AccountDescription></n1:Account></n1:GeneralLedgerAccounts></n1:MasterFiles>';

  it('an XML declaring UTF-8 over bytes that are not is refused with its line and byte; --encoding latin1 reads it', async () => {
    const file = copyOf(iconv.encode(xml(body), 'latin1'), 'xml');
    expect((await readLedgerFile(file)).problems).toEqual([
      '4: byte 0xC6 (at byte 380) is not UTF-8, which the file is read as (its XML declaration, or no --encoding): if it was saved in another encoding, name it with --encoding (latin1, windows-1252)',
    ]);
    expect((await readLedgerFile(file, { encoding: 'latin1' })).problems).toEqual([]);
  });
});

describe('what is wrong in a malformed audit file is said, by line', () => {
  it('DATEV: a header without its period, missing columns, bad rows', async () => {
    const noPeriod = copyOf(
      '"EXTF";700;21;"Buchungsstapel";13;20250110120000000;;"";"";"";1001;20001;20250101;4;;\r\n',
      'csv',
    );
    expect((await readLedgerFile(noPeriod)).problems).toEqual([
      '1: the DATEV header lacks its period (Datum vom, Datum bis: YYYYMMDD)',
    ]);
    const header = `"EXTF";700;21;"Buchungsstapel";13;20250110120000000;;"";"";"";1001;20001;20250101;4;20250101;20251231;"";"";1;0;0;"EUR";;"";;;"03"`;
    const noColumns = copyOf(`${header}\r\nUmsatz (ohne Soll/Haben-Kz);Konto\r\n`, 'csv');
    expect((await readLedgerFile(noColumns)).problems).toEqual([
      '2: the DATEV column names lack sollhaben, gegenkonto, belegdatum',
    ]);
    const bad = datevFile([
      '10,00;"S";"EUR";;;;1200;8200;"";3102;"X1";"";;"no such day"',
      '10,00;"X";"EUR";;;;1200;8200;"";0102;"X2";"";;"no side"',
      '10,00;"S";"EUR";;;;;8200;"";0102;"X3";"";;"no Konto"',
    ]);
    expect((await readLedgerFile(bad)).problems).toEqual([
      `3: Belegdatum "3102" is not a day (TTMM) of the file's period 2025-01-01 to 2025-12-31`,
      '4: Soll/Haben-Kennzeichen "X" is neither S nor H',
      '5: Konto or Gegenkonto is empty',
    ]);
  });

  it('SAF-T: opening balances without a period, a line without an account', async () => {
    const file = copyOf(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<AuditFile xmlns="urn:StandardAuditFile-Taxation-Financial:NO">',
        '<MasterFiles><GeneralLedgerAccounts><Account><AccountID>1920</AccountID><AccountDescription>Bank</AccountDescription>',
        '<OpeningDebitBalance>100</OpeningDebitBalance></Account></GeneralLedgerAccounts></MasterFiles>',
        '<GeneralLedgerEntries><Journal><JournalID>GL</JournalID><Transaction><TransactionID>1</TransactionID><TransactionDate>2025-01-05</TransactionDate>',
        '<Line><DebitAmount><Amount>5</Amount></DebitAmount></Line>',
        '</Transaction></Journal></GeneralLedgerEntries>',
        '</AuditFile>',
      ].join('\n'),
      'xml',
    );
    expect((await readLedgerFile(file)).problems).toEqual([
      '5: the file states opening balances but not its period (SelectionCriteria)',
      '6: a Line without an AccountID',
    ]);
  });

  it('SIE: a #TRANS outside a voucher, opening balances without #RAR 0', async () => {
    const file = copyOf(
      iconv.encode(
        ['#FLAGGA 0', '#KONTO 1930 "Bank"', '#IB 0 1930 100.00', '#TRANS 1930 {} 5.00'].join('\n'),
        'cp437',
      ),
      'se',
    );
    expect((await readLedgerFile(file)).problems).toEqual([
      '1: the file states opening balances (#IB 0) but not its year (#RAR 0)',
      '4: #TRANS outside a voucher',
    ]);
  });

  it('XAF: an amntTp neither D nor C', async () => {
    const file = copyOf(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<auditfile xmlns="http://www.auditfiles.nl/XAF/3.2"><header><startDate>2025-01-01</startDate></header>',
        '<company><transactions><journal><jrnID>10</jrnID><transaction><nr>1</nr><trDt>2025-01-05</trDt>',
        '<trLine><nr>1</nr><accID>1000</accID><amnt>5.00</amnt><amntTp>X</amntTp></trLine>',
        '</transaction></journal></transactions></company></auditfile>',
      ].join('\n'),
      'xml',
    );
    expect((await readLedgerFile(file)).problems).toEqual(['4: amntTp "X" is neither D nor C']);
  });
});

describe('--chart and the national charts', () => {
  it.skipIf(!saftPresent)(
    "--chart overrides a type inferred from the national chart's classes",
    async () => {
      const chart = copyOf('code,name,type\n1920,Bankinnskudd,Other Current Assets\n', 'csv');
      const { entries, problems } = await readLedgerFile(SAFT, {
        offsetAccount: 'Offset',
        chartFile: chart,
      });
      expect(problems).toEqual([]);
      const types = new Set(
        entries
          .flatMap((e) => e.lines)
          .filter((l) => l.accountCode === '1920')
          .map((l) => l.accountType),
      );
      expect([...types]).toEqual(['Other Current Assets']);
      const inferred = entries.flatMap((e) => e.lines).find((l) => l.accountCode === '1250');
      expect(inferred?.accountType).toBe('Fixed Assets');
    },
  );
});

describe("XAF's vat: each line's code, and the VAT line the code's own", () => {
  /*
   * The figures are the file's, read here from its XML (not by the reader): per code, the
   * vatAmnt each base line states (a line on the side its vat names, not a VAT account's), or
   * where an entry codes only its VAT line (Banana's D21-2), that line's own; books must carry
   * each code to VAT-account lines of exactly that sum. Three producers write `vat` three ways:
   * Exact on the base and (with 0.00) on the VAT line, Banana on every line of the entry, cash
   * line included, Unit4 Multivers on the base lines only, one VAT line for an invoice of many.
   */
  const files = [
    ['exact-online_xaf32_auditfile_2016_bananaaccounting-netherlands.xml', 'utf8'],
    ['banana_xaf32_no-rgs_2018_bananaaccounting-netherlands.xml', 'utf8'],
    ['unit4-multivers_xaf32_2017_bananaaccounting-netherlands.xml', 'latin1'],
  ] as const;
  it.each(files)('%s', async (name, encoding) => {
    const file = path.join(FIXTURES, name);
    const xml = iconv.decode(readFileSync(file), encoding);
    const names = new Map(
      [...xml.matchAll(/<ledgerAccount>\s*<accID>(.*?)<\/accID>\s*<accDesc>(.*?)<\/accDesc>/g)].map(
        (m) => [m[1]!, m[2]!],
      ),
    );
    const onVatAccount = (code: string) => /btw/i.test(names.get(code) ?? '');
    const stated = new Map<string, number>();
    const add = (code: string, cents: number) => stated.set(code, (stated.get(code) ?? 0) + cents);
    for (const [, transaction] of xml.matchAll(/<transaction>([\s\S]*?)<\/transaction>/g)) {
      const base = new Map<string, number>();
      const ownVat = new Map<string, number>();
      for (const [, trLine] of transaction!.matchAll(/<trLine>([\s\S]*?)<\/trLine>/g)) {
        const account = /<accID>(.*?)</.exec(trLine!)![1]!;
        const side = /<amntTp>(.*?)</.exec(trLine!)?.[1];
        const vats = [
          ...trLine!.matchAll(
            /<vat>\s*<vatID>(.*?)<\/vatID>[\s\S]*?<vatAmnt>(.*?)<\/vatAmnt>\s*<vatAmntTp>(.*?)</g,
          ),
        ].map(([, code, amount, vatSide]) => ({
          code: code!,
          cents: Math.abs(Math.round(Number(amount) * 100)) * (vatSide === 'D' ? 1 : -1),
          side: vatSide,
        }));
        if (!vats.some((vat) => vat.side === side)) continue;
        const into = onVatAccount(account) ? ownVat : base;
        for (const vat of vats) into.set(vat.code, (into.get(vat.code) ?? 0) + vat.cents);
      }
      for (const [code, cents] of base) add(code, cents);
      for (const [code, cents] of ownVat) if (!base.has(code)) add(code, cents);
    }
    const { entries, problems } = await readLedgerFile(file, {
      offsetAccount: 'Offset',
      encoding,
    });
    expect(problems).toEqual([]);
    const kept = new Map<string, number>();
    for (const line of entries.flatMap((entry) => entry.lines))
      if (line.taxCode && /btw/i.test(line.accountName ?? ''))
        kept.set(
          line.taxCode,
          (kept.get(line.taxCode) ?? 0) + Number(line.debitCents) - Number(line.creditCents),
        );
    expect(stated.size).toBeGreaterThan(1);
    expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(stated));
    // The gross (Banana's cash line, the debtor, the creditor) is no base: it carries no code.
    const coded = entries.flatMap((e) => e.lines).filter((l) => l.taxCode);
    expect(coded.filter((l) => /^(kas|debiteuren|crediteuren)/i.test(l.accountName ?? ''))).toEqual(
      [],
    );
  });
});
