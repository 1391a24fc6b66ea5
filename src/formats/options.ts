import { ACCOUNT_TYPES, type AccountType } from '../api/index.js';

/*
 * What the import commands' flags name, kept light: `books je import --help` and `migrate run
 * --help` load this, and nothing of the pipeline, the client or the platform.
 */

/** The export formats books reads (`--format`); `auto` tells them apart by their first bytes. */
export const LEDGER_FORMATS = [
  'auto',
  'books',
  'iif',
  'gnucash',
  'gnucash-book',
  'nominal-ledger',
  'qb-report',
  'qb-detail',
  'xero-report',
  'fec',
  'hledger',
  'ledger',
  'beancount',
  'saft',
  'xaf',
  'sie',
  'datev',
  'wave',
  'bexio',
  'infoniqa',
] as const;
export type LedgerFormat = (typeof LEDGER_FORMATS)[number];

/** `--datev-vat`: how a DATEV file's rows that imply VAT are posted. */
export type DatevVat = 'gross' | 'split';
/** `--skr`: DATEV's standard chart, SKR03 or SKR04. */
export const SKRS = ['03', '04'] as const;
export type Skr = (typeof SKRS)[number];

/**
 * `account_type` as files write it: one of the API's types, or a class of accounts (asset,
 * liability, equity, income or revenue, expense; any case, singular or plural), which stands for
 * its most general type.
 */
export const TYPE_OF_CLASS: Record<string, AccountType> = {
  asset: 'Other Current Assets',
  liability: 'Other Current Liabilities',
  equity: 'Equity',
  income: 'Income',
  revenue: 'Income',
  expense: 'Operating Expenses',
};

export function accountTypeOf(text: string): AccountType | undefined {
  const wanted = text.trim().replace(/\s+/g, ' ').toLowerCase();
  const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === wanted);
  if (type) return type;
  const singular = wanted.replace(/ies$/, 'y').replace(/s$/, '');
  return TYPE_OF_CLASS[singular];
}

/** `--code-ranges` as typed: `PREFIX=TYPE,…`; throws with what is wrong. */
export function parseCodeRanges(text: string): [string, string][] {
  return text.split(',').map((part) => {
    const [prefix = '', type = ''] = part.split('=').map((p) => p.trim());
    if (!/^\d+$/.test(prefix) || !accountTypeOf(type)) {
      throw new Error(
        `--code-ranges takes DIGITS=TYPE,… (e.g. 1=asset,2=liability,4=income), not "${part.trim()}"`,
      );
    }
    return [prefix, type];
  });
}
