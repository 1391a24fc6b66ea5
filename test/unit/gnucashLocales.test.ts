import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { formatOf } from '../../src/formats/reader.js';
import { GNUCASH_COLUMNS, GNUCASH_TRANSLATIONS } from '../../src/formats/gnucash/words.js';
import {
  GNUCASH_413_NAMES as NAMES,
  gnucashCsv,
  LOCALES,
  type Column,
  type Layout,
  type Transaction,
} from '../helpers/gnucashFiles.js';
import { random } from '../helpers/generatedLedger.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

/*
 * GnuCash exports in the user's language and locale, written here as GnuCash writes them
 * (helpers/gnucashFiles.ts), each read to the figures the test computed: the column names as
 * GnuCash 4.13 translates them (written out in the helper for seven languages, as its .mo files
 * have them), the locales' dates and amounts as glibc defines them, every layout GnuCash has had.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-gnucash-locales-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileOf = (text: string) => {
  const file = path.join(dir, `g${(files += 1)}.csv`);
  writeFileSync(file, text);
  return file;
};

/** The accounts of a book as each language's GnuCash chart names its top levels. */
const TOPS: Record<string, { asset: string; liability: string; income: string; expense: string }> =
  {
    de: { asset: 'Aktiva', liability: 'Fremdkapital', income: 'Erträge', expense: 'Aufwendungen' },
    fr: { asset: 'Actif', liability: 'Passif', income: 'Revenus', expense: 'Dépenses' },
    es: { asset: 'Activos', liability: 'Pasivo', income: 'Ingresos', expense: 'Gastos' },
    nl: { asset: 'Activa', liability: 'Vreemd vermogen', income: 'Inkomsten', expense: 'Uitgaven' },
    sv: { asset: 'Tillgångar', liability: 'Skulder', income: 'Inkomster', expense: 'Utgifter' },
    ja: { asset: '資産', liability: '負債', income: '収益', expense: '費用' },
    pt: { asset: 'Activo', liability: 'Passivo', income: 'Receita', expense: 'Despesa' },
    en: { asset: 'Assets', liability: 'Liabilities', income: 'Income', expense: 'Expenses' },
  };

/**
 * A year of a small business's transactions: sales and costs of every size (cents to eight
 * figures), a transaction of three splits, a voided one, one buying shares (another commodity),
 * one of a zero split; all dates of 2026, days over 12 among them.
 */
function book(
  language: string,
  options: { currency: string; twoSplitsOnly?: boolean; shares?: boolean; yen?: boolean },
): { transactions: Transaction[]; expected: [string, [string, string, number][]][] } {
  const tops = TOPS[language] ?? TOPS.en!;
  const bank = `${tops.asset}:Bank`;
  const sales = `${tops.income}:Sales`;
  const rent = `${tops.expense}:Rent`;
  const card = `${tops.liability}:Card`;
  const rng = random(language.length * 97 + (options.twoSplitsOnly ? 1 : 0));
  const transactions: Transaction[] = [];
  const amount = () => {
    const size = rng.int(0, 3);
    const cents =
      size === 0
        ? rng.int(1, 99)
        : size === 1
          ? rng.int(100, 99_999)
          : size === 2
            ? rng.int(100_000, 99_999_999)
            : rng.int(100_000_000, 1_234_567_890);
    return options.yen ? Math.max(100, Math.round(cents / 100) * 100) : cents;
  };
  for (let n = 0; n < 24; n += 1) {
    const day = `2026-${String((n % 12) + 1).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    const value = amount();
    const [debit, credit] = n % 3 === 0 ? [bank, sales] : n % 3 === 1 ? [rent, bank] : [rent, card];
    transactions.push({
      id: `${n.toString(16).padStart(4, '0')}${'ab'.repeat(14)}`,
      day,
      description: `Transaction ${n}`,
      currency: options.currency,
      splits: [
        { account: debit, value },
        { account: credit, value: -value },
      ],
    });
  }
  transactions.push({
    id: `ff01${'cd'.repeat(14)}`,
    day: '2026-12-13',
    description: 'Voided cheque',
    currency: options.currency,
    voidReason: 'Written in error',
    splits: [
      { account: rent, value: 50_000 },
      { account: bank, value: -50_000 },
    ],
  });
  if (!options.twoSplitsOnly) {
    transactions.push({
      id: `ff02${'cd'.repeat(14)}`,
      day: '2026-12-20',
      description: 'Three splits',
      currency: options.currency,
      splits: [
        { account: bank, value: 123_456_700, memo: 'Deposit' },
        { account: sales, value: -100_000_000 },
        { account: `${tops.liability}:VAT`, value: -23_456_700 },
        { account: `${tops.expense}:Fees`, value: 0 },
      ],
    });
    if (options.shares)
      transactions.push({
        id: `ff03${'cd'.repeat(14)}`,
        day: '2026-12-21',
        description: 'Shares bought',
        currency: options.currency,
        splits: [
          {
            account: `${tops.asset}:Broker:ACME`,
            value: 1_000_000,
            quantity: { hundredths: 3_000, commodity: 'ACME' },
          },
          { account: bank, value: -1_000_000 },
        ],
      });
  }
  const expected = transactions
    .filter((t) => !t.voidReason)
    .map(
      (t) =>
        [
          t.day,
          t.splits
            .filter((s) => s.value !== 0)
            .map((s) => [s.account, s.value > 0 ? 'debit' : 'credit', Math.abs(s.value)]),
        ] as [string, [string, string, number][]],
    );
  return { transactions, expected };
}

const readAs = async (file: string) => {
  const { entries, problems, notes } = await readLedgerFile(file);
  return {
    problems,
    notes,
    read: entries.map((e) => [
      e.date,
      e.lines.map((l) => [
        l.account,
        l.debitCents > 0 ? 'debit' : 'credit',
        l.debitCents > 0 ? l.debitCents : l.creditCents,
      ]),
    ]),
    types: new Map(entries.flatMap((e) => e.lines.map((l) => [l.account, l.accountType]))),
  };
};

describe('GnuCash exports in the user’s language and locale', () => {
  const cases: [string, string, string, Layout][] = [
    ['de', 'de_DE', 'EUR', '4.x'],
    ['de', 'de_DE', 'EUR', '3.x'],
    ['fr', 'fr_FR', 'EUR', '4.x'],
    ['fr', 'fr_FR', 'EUR', '3.x'],
    ['es', 'es_ES', 'EUR', '4.x'],
    ['es', 'es_ES', 'EUR', '2.6'],
    ['nl', 'nl_NL', 'EUR', '4.x'],
    ['nl', 'nl_NL', 'EUR', '3.x'],
    ['sv', 'sv_SE', 'SEK', '4.x'],
    ['sv', 'sv_SE', 'SEK', '2.6'],
    ['ja', 'ja_JP', 'JPY', '4.x'],
    ['ja', 'ja_JP', 'JPY', '3.x'],
    ['pt', 'pt_PT', 'EUR', '4.x'],
    ['pt', 'pt_BR', 'BRL', '3.x'],
  ];
  it.each(cases)(
    '%s in %s (%s), the %s layout: every transaction to its figures, voided ones left out, accounts typed',
    async (language, locale, currency, layout) => {
      const { names, split } = NAMES[language]!;
      const { transactions, expected } = book(language, {
        currency,
        shares: layout !== '2.6',
        yen: currency === 'JPY',
      });
      const file = fileOf(
        gnucashCsv(transactions, {
          layout,
          locale: LOCALES[locale]!,
          names,
          splitTransaction: split,
        }),
      );
      expect(formatOf(file, 'auto')).toBe('gnucash');
      const { read, problems, notes, types } = await readAs(file);
      expect(problems).toEqual([]);
      expect(read).toEqual(expected);
      expect(notes).toContain(
        'GnuCash: 1 voided transaction left out (GnuCash prints their former amounts)',
      );
      const tops = TOPS[language]!;
      expect(types.get(`${tops.asset}:Bank`)).toBe('asset');
      expect(types.get(`${tops.income}:Sales`)).toBe('income');
      expect(types.get(`${tops.expense}:Rent`)).toBe('expense');
      expect(types.get(`${tops.liability}:Card`)).toBe('liability');
      if (layout !== '2.6')
        expect(notes).toContain(
          "GnuCash: 1 split in another commodity than its transaction's currency, posted at its value, its quantity in its description",
        );
    },
  );

  it.each(Object.keys(LOCALES))(
    'the locale %s: its dates and amounts, the simple layout in English',
    async (locale) => {
      const currency = ['ja_JP', 'ko_KR'].includes(locale) ? 'JPY' : 'EUR';
      const { transactions, expected } = book('en', {
        currency,
        twoSplitsOnly: true,
        yen: currency === 'JPY',
      });
      const file = fileOf(gnucashCsv(transactions, { layout: 'simple', locale: LOCALES[locale]! }));
      const { read, problems } = await readAs(file);
      expect(problems).toEqual([]);
      // The simple layout prints voided transactions' former amounts with no reason: GnuCash
      // leaves nothing to tell them by, so they read as they are.
      const voided = transactions.find((t) => t.voidReason)!;
      expect(read).toEqual(
        [
          ...expected,
          [
            voided.day,
            voided.splits.map((s) => [
              s.account,
              s.value > 0 ? 'debit' : 'credit',
              Math.abs(s.value),
            ]),
          ],
        ].sort(
          (a, b) =>
            transactions.findIndex((t) => t.day === a[0]) -
            transactions.findIndex((t) => t.day === b[0]),
        ),
      );
    },
  );

  it.each(Object.entries(GNUCASH_TRANSLATIONS).filter(([, t]) => t.fullAccountName && t.amount))(
    'every language GnuCash translates the columns into: %s',
    async (language, translation) => {
      const names = Object.fromEntries(
        Object.entries(GNUCASH_COLUMNS).flatMap(([column, english]) =>
          translation[column as keyof typeof translation]
            ? [[english, translation[column as keyof typeof translation]!]]
            : [],
        ),
      ) as Partial<Record<Column, string>>;
      const { transactions, expected } = book('en', { currency: 'EUR' });
      const file = fileOf(
        gnucashCsv(transactions, { layout: '4.x', locale: LOCALES.de_DE!, names, delimiter: ';' }),
      );
      const { read, problems, notes } = await readAs(file);
      expect(problems).toEqual([]);
      expect(read).toEqual(expected);
      expect(notes.some((n) => n.startsWith('GnuCash: the header is in '))).toBe(true);
    },
  );

  it.each(['de', 'fr', 'nl', 'sv'])(
    'columns named alike (%s: the amount and the value named the same, as GnuCash 5 in German and its Android app write them) are told by their place: the amount before the value',
    async (language) => {
      const { names, split } = NAMES[language]!;
      const alike = {
        ...names,
        'Value With Sym': names['Amount With Sym']!,
        'Value Num.': names['Amount Num.']!,
      };
      const { transactions, expected } = book(language, { currency: 'EUR', shares: true });
      // GnuCash Android writes no Rate/Price: a split in another commodity balances only at its
      // value, so the value must be read from its own column.
      const rows = parse(
        gnucashCsv(transactions, {
          layout: '4.x',
          locale: LOCALES.de_DE!,
          names: alike,
          splitTransaction: split,
        }),
        { relax_quotes: true },
      ) as string[][];
      const price = rows[0]!.indexOf(alike['Rate/Price'] ?? 'Rate/Price');
      const file = fileOf(
        `${rows
          .map((r) =>
            r
              .filter((_, i) => i !== price)
              .map((c) => `"${c.replaceAll('"', '""')}"`)
              .join(','),
          )
          .join('\n')}\n`,
      );
      const { read, problems } = await readAs(file);
      expect(problems).toEqual([]);
      expect(read).toEqual(expected);
    },
  );

  it('a header in a language books does not know is read by GnuCash’s column order, and said', async () => {
    const names = Object.fromEntries(
      Object.values(GNUCASH_COLUMNS).map((english) => [english, `Kolonne ${english.length}`]),
    ) as Partial<Record<Column, string>>;
    const { transactions, expected } = book('en', { currency: 'EUR' });
    for (const layout of ['4.x', '3.x'] as const) {
      const file = fileOf(gnucashCsv(transactions, { layout, locale: LOCALES.de_DE!, names }));
      expect(formatOf(file, 'auto')).toBe('gnucash');
      const { read, problems, notes } = await readAs(file);
      expect(problems).toEqual([]);
      expect(read).toEqual(expected);
      expect(notes).toContain(
        "GnuCash: the header is in a language books does not know: its columns read by GnuCash's order (a row per split)",
      );
    }
  });

  it('the simple layout names no accounts for a transaction of several splits: each is refused, in its language', async () => {
    const { transactions } = book('de', { currency: 'EUR' });
    const file = fileOf(
      gnucashCsv(transactions, {
        layout: 'simple',
        locale: LOCALES.de_DE!,
        names: NAMES.de!.names,
        splitTransaction: NAMES.de!.split,
      }),
    );
    const { problems } = await readAs(file);
    expect(problems).toEqual([
      '27: the transaction has more than two splits ("-- Mehrteilige Buchung --"): the simple layout does not name their accounts; export again with "Use Simple Layout" off',
    ]);
  });
});
