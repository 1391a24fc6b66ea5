import type { AccountType } from '../../api/index.js';

/**
 * The Swiss SME chart of accounts (Kontenrahmen KMU), which bexio, Infoniqa and most Swiss tools
 * number their accounts by: 1 assets, 2 liabilities with 28 equity, 3 revenue, 4–6 expenses,
 * 7–8 other income and expenses, 9 closing. The type of each prefix; the longest that fits wins.
 */
const KMU_TYPES: [string, AccountType][] = [
  ['1', 'Other Current Assets'],
  ['100', 'Cash'],
  ['102', 'Cash'],
  ['106', 'Investments'],
  ['110', 'Accounts Receivable'],
  ['120', 'Inventory'],
  ['130', 'Prepaid Expenses'],
  ['14', 'Investments'],
  ['15', 'Fixed Assets'],
  ['16', 'Fixed Assets'],
  ['17', 'Intangible Assets'],
  ['18', 'Other Assets'],
  ['2', 'Other Current Liabilities'],
  ['200', 'Accounts Payable'],
  ['210', 'Short-Term Loans'],
  ['227', 'Payroll Liabilities'],
  ['24', 'Long-Term Loans'],
  ['26', 'Other Liabilities'],
  ['28', 'Equity'],
  ['29', 'Equity'],
  ['3', 'Income'],
  ['4', 'COGS'],
  ['5', 'Operating Expenses'],
  ['6', 'Operating Expenses'],
  ['69', 'Other Expenses'],
  ['695', 'Other Income'],
  ['7', 'Other Income'],
  ['8', 'Other Expenses'],
  ['89', 'Tax Expenses'],
  ['9', 'Equity'],
];
const BY_LENGTH = [...KMU_TYPES].sort((a, b) => b[0].length - a[0].length);

/** The type an account numbered by the Swiss SME chart stands for, or undefined. */
export function kmuType(code: string): AccountType | undefined {
  if (!/^\d{4}/.test(code)) return undefined;
  return BY_LENGTH.find(([prefix]) => code.startsWith(prefix))?.[1];
}
