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

/**
 * The Swiss SME chart's VAT accounts: 1170–1174 (Vorsteuer on material, goods and services, on
 * investments and other costs, its Ausgleich) and 2200–2205 (Geschuldete MWST and its
 * Abrechnungskonto). 1176 and 2206 are the Verrechnungssteuer, a withholding tax: not VAT.
 */
export const isSwissVatAccount = (code: string) => /^(117[0-4]|220[0-5])(\D|$)/.test(code);

/**
 * Which side of a booking between two accounts of the Swiss SME chart a VAT code belongs to,
 * as bexio writes one code a row for both: the VAT account (the tax line itself), else the
 * income or expense account (classes 3–8: the base), else a balance-sheet account that is not
 * money, a receivable or a payable (an investment: class 1 from 12, class 2 from 21). Undefined
 * where both sides rank alike: the row does not tell.
 */
export function swissTaxedSide(
  debitCode: string,
  creditCode: string,
): 'debit' | 'credit' | undefined {
  const rank = (code: string) =>
    isSwissVatAccount(code) ? 3 : /^[3-8]/.test(code) ? 2 : /^(1[2-9]|2[1-9])/.test(code) ? 1 : 0;
  const [debit, credit] = [rank(debitCode), rank(creditCode)];
  if (debit === credit) return undefined;
  return debit > credit ? 'debit' : 'credit';
}
