import type { AccountType } from '../../api/index.js';
import type { Skr } from '../options.js';

/*
 * DATEV's standard charts, SKR03 and SKR04, as the reader (reader.ts) and the writer (writer.ts)
 * both use them: the types of their number ranges, their VAT and automatic accounts, and the
 * accounts they keep for balances carried in and for the earlier years' results.
 */

/** The VAT accounts of each chart, by rate and side (USt: on revenue, VSt: on purchases). */
export const VAT_ACCOUNTS: Record<Skr, Record<'USt 7' | 'USt 19' | 'VSt 7' | 'VSt 19', string>> = {
  '03': { 'USt 7': '1771', 'USt 19': '1776', 'VSt 7': '1571', 'VSt 19': '1576' },
  '04': { 'USt 7': '3801', 'USt 19': '3806', 'VSt 7': '1401', 'VSt 19': '1406' },
};

/** Tax keys (Steuerschlüssel) `--datev-vat split` posts: rate and side. */
export const TAX_KEYS: Record<string, { rate: 7 | 19; side: 'USt' | 'VSt' }> = {
  '2': { rate: 7, side: 'USt' },
  '3': { rate: 19, side: 'USt' },
  '8': { rate: 7, side: 'VSt' },
  '9': { rate: 19, side: 'VSt' },
};

/**
 * Tax keys of VAT the recipient owes and reclaims at once, which DATEV posts on the net both
 * ways: 19 innergemeinschaftlicher Erwerb at 19 % (Kz 89, 61), 94 § 13b at 19 % (Kz 46/47 or
 * 84/85 by the kind of supply, which the row does not say: its code `BU94` is mapped by
 * `--tax-codes` to the entity's), each on the SKR's accounts of it (SKR03 1774 Umsatzsteuer aus
 * innergemeinschaftlichem Erwerb 19 % and 1574 its Vorsteuer, 1787 Umsatzsteuer nach § 13b
 * 19 % and 1577 its Vorsteuer; SKR04 3804/1404, 3837/1407).
 */
export const SELF_ASSESSED_KEYS: Record<
  string,
  { rate: 19; code: string; accounts: Record<Skr, { output: string; input: string }> }
> = {
  '19': {
    rate: 19,
    code: 'IGE19',
    accounts: { '03': { output: '1774', input: '1574' }, '04': { output: '3804', input: '1404' } },
  },
  '94': {
    rate: 19,
    code: 'BU94',
    accounts: { '03': { output: '1787', input: '1577' }, '04': { output: '3837', input: '1407' } },
  },
};

/** The BU-Schlüssel that suspends an automatic account's tax: the row is posted as written. */
export const AUTOMATIC_OFF = '40';

/** The automatic accounts (Automatikkonten) of each chart: 7 % and 19 % revenue and purchases. */
export const AUTOMATIC: Record<Skr, Record<string, { rate: 7 | 19; side: 'USt' | 'VSt' }>> = {
  '03': {
    '8300': { rate: 7, side: 'USt' },
    '8400': { rate: 19, side: 'USt' },
    '3300': { rate: 7, side: 'VSt' },
    '3400': { rate: 19, side: 'VSt' },
  },
  '04': {
    '4300': { rate: 7, side: 'USt' },
    '4400': { rate: 19, side: 'USt' },
    '5300': { rate: 7, side: 'VSt' },
    '5400': { rate: 19, side: 'VSt' },
  },
};

/** Types by account-number range of each chart; the last range that holds the number wins. */
export const SKR_TYPES: Record<Skr, [number, number, AccountType][]> = {
  '03': [
    [0, 999, 'Fixed Assets'],
    [10, 199, 'Intangible Assets'],
    [500, 699, 'Long-Term Loans'],
    [800, 899, 'Equity'],
    [900, 999, 'Other Liabilities'],
    [1000, 1299, 'Cash'],
    [1300, 1399, 'Investments'],
    [1400, 1499, 'Accounts Receivable'],
    [1500, 1599, 'Other Current Assets'],
    [1600, 1699, 'Accounts Payable'],
    [1700, 1799, 'Other Current Liabilities'],
    [1740, 1759, 'Payroll Liabilities'],
    [1800, 1999, 'Equity'],
    [2000, 2499, 'Other Expenses'],
    [2200, 2299, 'Tax Expenses'],
    [2500, 2799, 'Other Income'],
    [3000, 3999, 'COGS'],
    [4000, 4999, 'Operating Expenses'],
    [7000, 7999, 'Inventory'],
    [8000, 8999, 'Income'],
    [9000, 9099, 'Equity'],
  ],
  '04': [
    [0, 999, 'Fixed Assets'],
    [10, 199, 'Intangible Assets'],
    [500, 999, 'Investments'],
    [1000, 1199, 'Inventory'],
    [1200, 1299, 'Accounts Receivable'],
    [1300, 1499, 'Other Current Assets'],
    [1500, 1599, 'Investments'],
    [1600, 1899, 'Cash'],
    [1900, 1999, 'Prepaid Expenses'],
    [2000, 2999, 'Equity'],
    [3000, 3099, 'Other Liabilities'],
    [3100, 3299, 'Long-Term Loans'],
    [3300, 3399, 'Accounts Payable'],
    [3400, 3999, 'Other Current Liabilities'],
    [3700, 3799, 'Payroll Liabilities'],
    [4000, 4999, 'Income'],
    [4800, 4999, 'Other Income'],
    [5000, 5999, 'COGS'],
    [6000, 6999, 'Operating Expenses'],
    [7000, 7299, 'Other Income'],
    [7300, 7599, 'Other Expenses'],
    [7600, 7699, 'Tax Expenses'],
    [9000, 9099, 'Equity'],
  ],
};

/** The type an account of the chart stands for (its first four digits), or undefined. */
export function skrType(code: string, skr: Skr | undefined): AccountType | undefined {
  if (skr === undefined || !/^\d{4}/.test(code)) return undefined;
  const number = Number(code.slice(0, 4));
  return SKR_TYPES[skr].filter(([from, to]) => number >= from && number <= to).at(-1)?.[2];
}

/** The accounts DATEV's charts keep for balances carried in, in the order tried. */
export const CARRIED_ACCOUNTS = ['9000', '9008', '9009', '9090'];

/** Each chart's accounts for the earlier years' results: a profit carried, a loss carried. */
export const RETAINED_EARNINGS: Record<
  Skr,
  Record<'profit' | 'loss', { code: string; name: string }>
> = {
  '03': {
    profit: { code: '0860', name: 'Gewinnvortrag vor Verwendung' },
    loss: { code: '0868', name: 'Verlustvortrag vor Verwendung' },
  },
  '04': {
    profit: { code: '2970', name: 'Gewinnvortrag vor Verwendung' },
    loss: { code: '2978', name: 'Verlustvortrag vor Verwendung' },
  },
};

/**
 * What books writes in Beleginfo (Art, Inhalt) for a code DATEV computes no key for: the code of
 * the line the row debits (Soll) and credits (Haben). DATEV keeps them as the document's
 * information and computes nothing from them; books' reader gives the lines their codes back.
 */
export const STATED_CODE = { debit: 'Steuercode Soll', credit: 'Steuercode Haben' } as const;
