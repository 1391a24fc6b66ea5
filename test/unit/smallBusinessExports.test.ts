import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatOf } from '../../src/formats/reader.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

/*
 * Small-business tools' journals (Wave, bexio, Infoniqa) and QuickBooks Desktop lists with
 * opening balances. The real files are changed here in copies: bexio's and Infoniqa's
 * (Apache-2.0) are kept in test/fixtures/realworld; the Wave export (in a repository under the
 * Elastic License 2.0) is read from ../shared/realworld/ and its tests skipped, saying so, where
 * it is not. The rest is written from the tools' layouts.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/realworld');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/realworld/files');
const WAVE = path.join(SHARED, 'wave_accounting_transactions_invoiceninja_expenses.csv');
const INFONIQA = path.join(
  FIXTURES,
  'infoniqa-one50_journal_export_2024_bananaaccounting-switzerland.csv',
);
const BEXIO = path.join(FIXTURES, 'bexio_journal_export_2022_bananaaccounting-switzerland.csv');
const present = existsSync(WAVE);
if (!present)
  console.warn(
    `skipped: the Wave export is not at ${WAVE} (read from the project's ../shared/realworld/files, not kept here)`,
  );

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-smallbiz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fileOf = (text: string, extension = 'csv') => {
  const file = path.join(dir, `f${(count += 1)}.${extension}`);
  writeFileSync(file, text);
  return file;
};

describe('the real exports, told by their headers', () => {
  it.skipIf(!present)('Wave, told by auto', () => {
    expect(formatOf(WAVE, 'auto')).toBe('wave');
  });

  it('bexio and Infoniqa, told apart by auto', () => {
    expect(formatOf(BEXIO, 'auto')).toBe('bexio');
    expect(formatOf(INFONIQA, 'auto')).toBe('infoniqa');
  });

  it.skipIf(!present)('Wave: a posting changed is refused, naming its transaction', async () => {
    const text = readFileSync(WAVE, 'utf8').replace(
      '537537669383611013,2015-12-30,Computer – Hardware,-hjj,-hjj,96.00,,96.00,',
      '537537669383611013,2015-12-30,Computer – Hardware,-hjj,-hjj,96.00,,69.00,',
    );
    expect((await readLedgerFile(fileOf(text))).problems).toEqual([
      '2: entry "537537669383611013" (lines 2–3) does not balance: debits 69.00, credits 96.00',
    ]);
  });

  it('Infoniqa: a posting changed is refused, naming its voucher; the vouchers need not be sorted', async () => {
    const lines = readFileSync(INFONIQA, 'utf8').split('\n');
    const changed = [...lines];
    changed[1] = changed[1]!.replace('3916.85', '3916.58');
    expect((await readLedgerFile(fileOf(changed.join('\n')))).problems).toEqual([
      '2: entry "1" (lines 2–3) does not balance: debits 3,916.58, credits 3,916.85',
    ]);
    // The first voucher's rows moved apart, to the end: still one voucher.
    const apart = [lines[0]!, lines[1]!, ...lines.slice(3), lines[2]!].join('\n');
    const read = await readLedgerFile(fileOf(apart));
    expect(read.problems).toEqual([]);
    expect(
      read.entries[0]!.lines.map((l) => [l.accountCode, l.debitCents - l.creditCents]),
    ).toEqual([
      ['3450', 391_685],
      ['1100', -391_685],
    ]);
  });

  it('bexio: amounts in the base currency, lost characters said', async () => {
    const { problems, entries, notes } = await readLedgerFile(BEXIO);
    expect(problems).toEqual([]);
    const euro = entries.find((e) => e.memo.includes('Flus Sologna 640 (52)'))!;
    expect(euro.lines.map((l) => [l.accountCode, l.debitCents - l.creditCents])).toEqual([
      ['6840', 1_261],
      ['1025', -1_261],
    ]);
    expect(notes).toContain(
      'bexio journal: amounts in the base currency (Betrag in Basiswährung); 22 rows are in another currency, its Betrag left aside',
    );
    expect(notes).toContain(
      'bexio: 41 rows hold characters a past re-encoding already lost (U+FFFD, �), read as they are',
    );
  });
});

describe('a bexio account ledger', () => {
  const ledger = (rows: string[]) =>
    fileOf(
      ['Kontonummer;Datum;Referenz;Beschreibung;GK;MWST;Soll;Haben;Saldo', ...rows].join('\n'),
    );

  it('posts each row against its GK account, the running Saldo checked', async () => {
    const file = ledger([
      "1020;03.01.2025;R1;Einzahlung;3200;;1'250.00;;1'250.00",
      '1020;15.01.2025;Z1;Miete;6000;;;800.00;450.00',
    ]);
    expect(formatOf(file, 'auto')).toBe('bexio');
    const { problems, entries } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(
      entries.map((e) =>
        e.lines.map((l) => [l.accountCode, l.accountType, l.debitCents - l.creditCents]),
      ),
    ).toEqual([
      [
        ['1020', 'Cash', 125_000],
        ['3200', 'Income', -125_000],
      ],
      [
        ['6000', 'Operating Expenses', 80_000],
        ['1020', 'Cash', -80_000],
      ],
    ]);
  });

  it('refuses a running Saldo that disagrees with its rows, naming the row', async () => {
    const file = ledger([
      "1020;03.01.2025;R1;Einzahlung;3200;;1'250.00;;1'250.00",
      '1020;15.01.2025;Z1;Miete;6000;;;800.00;540.00',
      '1020;20.01.2025;Z2;Gebühren;6840;;;10.00;530.00',
    ]);
    expect((await readLedgerFile(file)).problems).toEqual([
      "3: the running Saldo says 540.00, the row before and this row's Soll and Haben make 450.00: a row is missing or was changed",
    ]);
  });
});

/** QuickBooks Desktop lists: an `!ACCNT` header and rows with OBAMOUNT, and no transactions. */
const lists = (rows: string[]) =>
  fileOf(
    [
      '!ACCNT\tNAME\tACCNTTYPE\tDESC\tACCNUM\tOBAMOUNT',
      ...rows,
      '!CUST\tNAME',
      'CUST\tMain Street Bakery',
    ].join('\r\n'),
    'iif',
  );

describe('QuickBooks Desktop lists with opening balances (OBAMOUNT)', () => {
  const netting = [
    'ACCNT\tChecking\tBANK\t\t1000\t"99,250.02"',
    'ACCNT\tAccounts Payable\tAP\t\t2000\t-1250.02',
    'ACCNT\tOwner Equity\tEQUITY\t\t3000\t"-98,000.00"',
    'ACCNT\tSales\tINC\t\t4000\t0',
  ];

  it('post as one opening entry on --opening-date', async () => {
    const { problems, entries, notes } = await readLedgerFile(lists(netting), {
      openingDate: '2025-12-31',
    });
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.date).toBe('2025-12-31');
    expect(
      entries[0]!.lines.map((l) => [l.account, l.accountType, l.debitCents - l.creditCents]),
    ).toEqual([
      ['1000\u0000Checking', 'Cash', 9_925_002],
      ['2000\u0000Accounts Payable', 'Accounts Payable', -125_002],
      ['3000\u0000Owner Equity', 'Equity', -9_800_000],
    ]);
    expect(notes).toContain(
      'IIF: the OBAMOUNTs of 3 accounts posted as one opening entry on 2025-12-31 (--opening-date)',
    );
  });

  it('need a day: a file of lists without --opening-date is refused, asking for it', async () => {
    expect((await readLedgerFile(lists(netting))).problems).toEqual([
      "2: the chart's OBAMOUNTs are opening balances and the file has no transaction to date them by: pass --opening-date YYYY-MM-DD, the day they stand at",
    ]);
  });

  it('that do not net are refused without --offset-account, and go against it with', async () => {
    const uneven = lists([
      'ACCNT\tChecking\tBANK\t\t1000\t500.00',
      'ACCNT\tLoan\tLTLIAB\t\t2700\t-200.00',
    ]);
    expect((await readLedgerFile(uneven, { openingDate: '2025-12-31' })).problems).toEqual([
      '2: the opening balances do not net to zero: debits exceed credits by 300.00; pass --offset-account ACCOUNT to take the difference (made as Equity with --create-missing-accounts)',
    ]);
    const offset = await readLedgerFile(uneven, {
      openingDate: '2025-12-31',
      offsetAccount: 'Opening Balance Equity',
    });
    expect(offset.problems).toEqual([]);
    expect(offset.entries[0]!.lines.at(-1)).toMatchObject({
      account: 'Opening Balance Equity',
      accountType: 'Equity',
      creditCents: 30_000,
    });
  });

  it('in a file with transactions: left aside, unless --opening-balances (the day before the first)', async () => {
    const withTransactions = fileOf(
      [
        '!ACCNT\tNAME\tACCNTTYPE\tACCNUM\tOBAMOUNT',
        'ACCNT\tChecking\tBANK\t1000\t100.00',
        'ACCNT\tOwner Equity\tEQUITY\t3000\t-100.00',
        '!TRNS\tTRNSTYPE\tDATE\tACCNT\tAMOUNT',
        '!SPL\tTRNSTYPE\tDATE\tACCNT\tAMOUNT',
        '!ENDTRNS',
        'TRNS\tGENERAL JOURNAL\t1/15/2026\tChecking\t40.00',
        'SPL\tGENERAL JOURNAL\t1/15/2026\tOwner Equity\t-40.00',
        'ENDTRNS',
      ].join('\r\n'),
      'iif',
    );
    const plain = await readLedgerFile(withTransactions);
    expect(plain.entries).toHaveLength(1);
    expect(plain.notes).toContain(
      'IIF: 2 OBAMOUNTs of the chart left aside: the transactions make the balances (--opening-balances posts them as well)',
    );
    const both = await readLedgerFile(withTransactions, { openingBalances: true });
    expect(both.problems).toEqual([]);
    expect(both.entries.map((e) => e.date)).toEqual(['2026-01-15', '2026-01-14']);
  });
});

describe('what is wrong in a row is said, by line', () => {
  it('bexio and Infoniqa dates, an IIF OBAMOUNT that is not an amount', async () => {
    const bexio = fileOf(
      [
        'Datum;Referenz;Soll;Haben;Beschreibung;Betrag;Buchungswährung;Umrechnungsfaktor;Betrag in Basiswährung;Währung in Basiswährung;MWST',
        '31.02.2022;R1;1020 - Bank;3200 - Ertrag;x;10.00;CHF;1;10.00;CHF;',
      ].join('\n'),
    );
    expect((await readLedgerFile(bexio)).problems).toEqual([
      '2: Datum "31.02.2022" is not a date (DD.MM.YYYY)',
    ]);
    const infoniqa = fileOf(
      [
        'Blg,Datum,Kto,S/H,Grp,GKto,SId,SIdx,KIdx,BTyp,MTyp,Code,Netto,Steuer,FW-Betrag,Tx1,Tx2,PkKey,OpId,Flag',
        '1,2024-1-1,3450,S, ,1100,,0,0,0,1,,10.00,0.00,0.00,"a","b",0,,0',
      ].join('\n'),
    );
    expect((await readLedgerFile(infoniqa)).problems).toEqual([
      '2: Datum "2024-1-1" is not a date (d.m.yyyy)',
    ]);
    expect(
      (
        await readLedgerFile(lists(['ACCNT\tChecking\tBANK\t\t1000\tlots']), {
          openingDate: '2025-12-31',
        })
      ).problems,
    ).toEqual(['2: ACCNT: OBAMOUNT "lots" is not an amount']);
  });
});

describe('Swiss VAT codes: each to the line it taxes', () => {
  const csvRows = (file: string, separator: string) =>
    readFileSync(file, 'latin1')
      .split(/\r?\n/)
      .filter(Boolean)
      .map((row) => row.split(separator));
  const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
  const isVat = (code: string) => /^(117[0-4]|220[0-5])$/.test(code);
  const byCode = (
    lines: { taxCode?: string; accountCode?: string; debitCents: number; creditCents: number }[],
  ) => {
    const sums = new Map<string, number>();
    for (const l of lines)
      if (l.taxCode && isVat(l.accountCode ?? ''))
        sums.set(
          l.taxCode,
          (sums.get(l.taxCode) ?? 0) + Number(l.debitCents) - Number(l.creditCents),
        );
    return Object.fromEntries(sums);
  };

  it.each([
    'bexio_journal_export_2022_bananaaccounting-switzerland.csv',
    'bexio_journal_export_2023_bananaaccounting-switzerland.csv',
  ])(
    'a bexio journal (%s): the code of a row on its VAT account, income or expense; never the receivable, payable or bank',
    async (name) => {
      const file = path.join(FIXTURES, name);
      const [header, ...rows] = csvRows(file, ';');
      const at = (column: string) => header!.findIndex((h) => h.startsWith(column));
      // From the file: per code, the rows that book VAT (one side a VAT account), signed.
      const stated = new Map<string, number>();
      let coded = 0;
      for (const row of rows) {
        const code = /^\S+/.exec(row[at('MWST')] ?? '')?.[0];
        const amount = cents(row[at('Betrag in Basis')]!);
        if (!code || amount === 0) continue;
        coded += 1;
        const [debit, credit] = [row[at('Soll')]!, row[at('Haben')]!].map((a) => a.split(' ')[0]!);
        if (isVat(debit!)) stated.set(code, (stated.get(code) ?? 0) + amount);
        if (isVat(credit!)) stated.set(code, (stated.get(code) ?? 0) - amount);
      }
      const { entries, problems } = await readLedgerFile(file);
      expect(problems).toEqual([]);
      const lines = entries.flatMap((e) => e.lines);
      const codedLines = lines.filter((l) => l.taxCode);
      expect(codedLines).toHaveLength(coded);
      const money = (code: string) => /^(10|11|20)/.test(code) && !isVat(code);
      expect(codedLines.filter((l) => money(l.accountCode ?? ''))).toEqual([]);
      expect(byCode(lines)).toEqual(Object.fromEntries(stated));
    },
  );

  it('a bexio account ledger: the Code to the GK account, not the bank', async () => {
    const file = path.join(
      FIXTURES,
      'bexio_account-ledger_lost-separators_2024_bananaaccounting-switzerland.csv',
    );
    const { entries } = await readLedgerFile(file);
    const coded = entries.flatMap((e) => e.lines).filter((l) => l.taxCode);
    expect(new Set(coded.map((l) => l.taxCode))).toEqual(new Set(['VB25', 'VB77']));
    expect(coded).toHaveLength(10);
    expect(coded.every((l) => l.accountCode !== '1010')).toBe(true);
  });

  it.each([
    'infoniqa-one50_journal_export_2024_bananaaccounting-switzerland.csv',
    'infoniqa-one50_journal_export_2025_bananaaccounting-switzerland.csv',
  ])('Infoniqa (%s): SId on the base, its tax row found by Netto and Steuer', async (name) => {
    const file = path.join(FIXTURES, name);
    const [header, ...rows] = csvRows(file, ',');
    const at = (column: string) => header!.indexOf(column);
    // From the file: per code, each base row's Steuer, and what a row with an SId on a VAT
    // account posts itself (BTyp 3); signed by S/H.
    const stated = new Map<string, number>();
    for (const row of rows) {
      const code = row[at('SId')];
      if (!code) continue;
      const sign = row[at('S/H')] === 'S' ? 1 : -1;
      const posted = isVat(row[at('Kto')]!);
      const amount = cents(row[at(posted ? 'Netto' : 'Steuer')]!) * sign;
      stated.set(code, (stated.get(code) ?? 0) + amount);
    }
    const { entries, problems } = await readLedgerFile(file);
    expect(problems).toEqual([]);
    expect(byCode(entries.flatMap((e) => e.lines))).toEqual(
      Object.fromEntries([...stated].filter(([, sum]) => sum !== 0)),
    );
  });
});
