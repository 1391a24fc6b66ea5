import type { AccountType } from '../../api/index.js';
import type { AccountKind } from '../ledgerCsv.js';

/*
 * The Dutch charts an XAF file's accounts are typed by: the Referentie GrootboekSchema (RGS) and
 * the classes of the decimal rekeningschema.
 */

/**
 * The groups of the Referentie GrootboekSchema (RGS 3.x, level 2: `B` and three letters on the
 * balance sheet, `W` and three letters in profit and loss), and the level-3 codes that name a
 * more precise type; the longest prefix that fits wins.
 */
const RGS_TYPES: [string, AccountType][] = [
  ['BIva', 'Intangible Assets'],
  ['BMva', 'Fixed Assets'],
  ['BVas', 'Fixed Assets'],
  ['BFva', 'Investments'],
  ['BVrd', 'Inventory'],
  ['BPro', 'Inventory'],
  ['BVor', 'Other Current Assets'],
  ['BVorDeb', 'Accounts Receivable'],
  ['BVorOva', 'Prepaid Expenses'],
  ['BEff', 'Investments'],
  ['BLim', 'Cash'],
  ['BEiv', 'Equity'],
  ['BEga', 'Other Liabilities'],
  ['BVrz', 'Other Liabilities'],
  ['BLas', 'Long-Term Loans'],
  ['BSch', 'Other Current Liabilities'],
  ['BSchCre', 'Accounts Payable'],
  ['BSchKol', 'Short-Term Loans'],
  ['BSchSak', 'Short-Term Loans'],
  ['BSchSal', 'Payroll Liabilities'],
  ['BSchBep', 'Payroll Liabilities'],
  ['WOmz', 'Income'],
  ['WLbe', 'Income'],
  ['WRev', 'Other Income'],
  ['WRvi', 'Other Income'],
  ['WRgr', 'Other Income'],
  ['WWvv', 'Other Income'],
  ['WNoa', 'Other Income'],
  ['WOvb', 'Other Income'],
  ['WOvt', 'Other Income'],
  ['WVhe', 'Other Income'],
  ['WRed', 'Other Income'],
  ['WKpr', 'COGS'],
  ['WWiv', 'COGS'],
  ['WOok', 'Operating Expenses'],
  ['WKol', 'Operating Expenses'],
  ['WVkf', 'Operating Expenses'],
  ['WAkf', 'Operating Expenses'],
  ['WPer', 'Operating Expenses'],
  ['WAfs', 'Operating Expenses'],
  ['WBed', 'Operating Expenses'],
  ['WWvi', 'Other Expenses'],
  ['WBwv', 'Other Expenses'],
  ['WWfa', 'Other Expenses'],
  ['WFbe', 'Other Expenses'],
  ['WFbeRlm', 'Other Income'],
  ['WFbeOnn', 'Other Income'],
  ['WFbeDfb', 'Other Income'],
  ['WFbeOrb', 'Other Income'],
  ['WFbeRbb', 'Other Income'],
  ['WBel', 'Tax Expenses'],
  ['WAad', 'Other Expenses'],
  ['WNer', 'Other Expenses'],
  ['WMfo', 'Other Expenses'],
];
const RGS_BY_LENGTH = [...RGS_TYPES].sort((a, b) => b[0].length - a[0].length);

/** An RGS code: `B` or `W`, then segments of a capital and two small letters (`BLimBan`). */
export const isRgsCode = (text: string) => /^[BW](?:[A-Z][a-z0-9]{2})+/.test(text.trim());

/**
 * The type an RGS code stands for: by its group, refined where a level-3 code is more precise.
 * A code of the right shape whose group this table lacks is typed by its side alone (`B` balance
 * sheet, `W` profit and loss) through `rgsKind`.
 */
export function rgsType(reference: string): AccountType | undefined {
  const code = reference.trim();
  return RGS_BY_LENGTH.find(([prefix]) => code.startsWith(prefix))?.[1];
}

/** What an RGS code's first letter says: balance sheet (B) or profit and loss (W). */
export const rgsKind = (reference: string): AccountKind | undefined =>
  !isRgsCode(reference)
    ? undefined
    : reference.trim().startsWith('B')
      ? 'balance sheet'
      : 'profit and loss';

/**
 * Without an RGS code: the classes of the Dutch decimal chart (rekeningschema) that name one
 * type, when the account's accTp agrees — 3 inventory (B), 4 costs, 7 cost of sales, 8 revenue
 * (P). Classes 0, 1, 2 and 9 hold accounts of several types: left to accTp.
 */
export function dutchClassType(code: string, balanceSheet: boolean): AccountType | undefined {
  const type = (
    { '3': 'Inventory', '4': 'Operating Expenses', '7': 'COGS', '8': 'Income' } as const
  )[code.charAt(0)];
  return type === undefined || (type === 'Inventory') !== balanceSheet ? undefined : type;
}
