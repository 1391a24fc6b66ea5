import { CLASS_OF_TYPE, type AccountType } from '../../api/index.js';
import type { AccountKind } from '../ledgerCsv.js';

/*
 * Norway's charts as SAF-T Financial uses them, for the reader (reader.ts) and the writer
 * (writer.ts) alike: NS 4102's standard accounts by group, and the næringsspesifikasjon's
 * grouping categories — read into types, and written from them.
 */

/** Norway's standard chart: the type of each two-digit group (NS 4102). */
const NORWEGIAN_GROUPS: [string, AccountType][] = [
  ['10', 'Intangible Assets'],
  ['11', 'Fixed Assets'],
  ['12', 'Fixed Assets'],
  ['13', 'Investments'],
  ['14', 'Inventory'],
  ['15', 'Accounts Receivable'],
  ['16', 'Other Current Assets'],
  ['17', 'Prepaid Expenses'],
  ['18', 'Investments'],
  ['19', 'Cash'],
  ['20', 'Equity'],
  ['21', 'Other Liabilities'],
  ['22', 'Long-Term Loans'],
  ['23', 'Short-Term Loans'],
  ['24', 'Accounts Payable'],
  ['25', 'Other Current Liabilities'],
  ['26', 'Payroll Liabilities'],
  ['27', 'Other Current Liabilities'],
  ['28', 'Other Current Liabilities'],
  ['29', 'Other Current Liabilities'],
  ['3', 'Income'],
  ['38', 'Other Income'],
  ['39', 'Other Income'],
  ['4', 'COGS'],
  ['5', 'Operating Expenses'],
  ['6', 'Operating Expenses'],
  ['7', 'Operating Expenses'],
  ['80', 'Other Income'],
  ['81', 'Other Expenses'],
  ['83', 'Tax Expenses'],
  ['84', 'Other Expenses'],
  ['85', 'Tax Expenses'],
  ['88', 'Equity'],
  ['89', 'Equity'],
];

/** The type a Norwegian standard account (or an account numbered by that chart) stands for. */
export function norwegianType(code: string): AccountType | undefined {
  if (!/^\d{2}/.test(code)) return undefined;
  return (
    NORWEGIAN_GROUPS.find(([group]) => group === code.slice(0, 2))?.[1] ??
    NORWEGIAN_GROUPS.find(([group]) => group === code.slice(0, 1))?.[1]
  );
}

/**
 * The categories of 1.30's GroupingCategory: the type each stands for, refined by its
 * GroupingCode where that is a standard account (`balanseverdiForOmloepsmiddel` 1500 is
 * receivables). A category of income or costs that can be either is left to the side of the
 * account's balance.
 */
const GROUPING_CATEGORIES: Record<string, AccountType | AccountKind> = {
  balanseverdiForAnleggsmiddel: 'Fixed Assets',
  balanseverdiForOmloepsmiddel: 'Other Current Assets',
  egenkapital: 'Equity',
  langsiktigGjeld: 'Long-Term Loans',
  kortsiktigGjeld: 'Other Current Liabilities',
  salgsinntekt: 'Income',
  annenDriftsinntekt: 'Other Income',
  varekostnad: 'COGS',
  loennskostnad: 'Operating Expenses',
  annenDriftskostnad: 'Operating Expenses',
  finansinntekt: 'Other Income',
  finanskostnad: 'Other Expenses',
  skattekostnad: 'Tax Expenses',
  'resultatDisponeringForSAF-T': 'Equity',
  resultatkomponentForIFRSForetak: 'profit and loss',
  balanseverdiForBankOgForsikringseiendel: 'Other Current Assets',
  gjeldInnenBankOgForsikring: 'Other Current Liabilities',
  endringIEgenkapitalInnenBankOgForsikring: 'Equity',
  bankOgForsikringsinntekt: 'Income',
  bankOgForsikringskostnad: 'Operating Expenses',
  bankOgForsikringsinntektEllerKostnadSomIkkeBlirOmklassifisertTilResultatet: 'profit and loss',
  bankOgForsikringsinntektEllerKostnadSomKanBliOmklassifisertTilResultatet: 'profit and loss',
};

/**
 * The type (or only the side) of an account by its GroupingCategory and GroupingCode: the
 * næringsspesifikasjon's categories, refined by a code that is a standard account of the same
 * class; KS (the state's chart, numbered as the standard one); KOSTRA (municipalities: arts
 * 0–5 costs, 6–9 income).
 */
export function groupingType(
  category: string,
  code: string,
): AccountType | AccountKind | undefined {
  const name = category.trim();
  if (name === 'KS') return norwegianType(code.trim());
  if (/^KA_/.test(name)) {
    const digit = code.trim().charAt(0);
    if (!/\d/.test(digit)) return undefined;
    return digit <= '5' ? 'Operating Expenses' : 'Income';
  }
  const stated = GROUPING_CATEGORIES[name];
  if (stated === undefined || stated === 'profit and loss' || stated === 'balance sheet')
    return stated;
  const refined = /^\d{4}$/.test(code.trim()) ? norwegianType(code.trim()) : undefined;
  return refined !== undefined && CLASS_OF_TYPE[refined] === CLASS_OF_TYPE[stated]
    ? refined
    : stated;
}

/** Each account type's næringsspesifikasjon category and code (grouping-category-code-1.3). */
export const GROUPING: Record<AccountType, [string, string]> = {
  Cash: ['balanseverdiForOmloepsmiddel', '1920'],
  'Accounts Receivable': ['balanseverdiForOmloepsmiddel', '1500'],
  Inventory: ['balanseverdiForOmloepsmiddel', '1400'],
  'Other Current Assets': ['balanseverdiForOmloepsmiddel', '1570'],
  'Prepaid Expenses': ['balanseverdiForOmloepsmiddel', '1570'],
  Investments: ['balanseverdiForAnleggsmiddel', '1350'],
  'Fixed Assets': ['balanseverdiForAnleggsmiddel', '1290'],
  'Intangible Assets': ['balanseverdiForAnleggsmiddel', '1020'],
  'Other Assets': ['balanseverdiForAnleggsmiddel', '1390'],
  'Accounts Payable': ['kortsiktigGjeld', '2400'],
  'Credit Cards': ['kortsiktigGjeld', '2990'],
  'Payroll Liabilities': ['kortsiktigGjeld', '2949'],
  'Short-Term Loans': ['kortsiktigGjeld', '2380'],
  'Other Current Liabilities': ['kortsiktigGjeld', '2990'],
  'Long-Term Loans': ['langsiktigGjeld', '2220'],
  'Other Liabilities': ['langsiktigGjeld', '2290'],
  Equity: ['egenkapital', '2050'],
  Income: ['salgsinntekt', '3000'],
  'Other Income': ['finansinntekt', '8079'],
  COGS: ['varekostnad', '4005'],
  'Operating Expenses': ['annenDriftskostnad', '7700'],
  'Other Expenses': ['finanskostnad', '8179'],
  'Tax Expenses': ['skattekostnad', '8300'],
};
