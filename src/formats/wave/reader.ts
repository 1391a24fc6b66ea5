import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { subtractCents, ZERO_CENTS } from '../../core/money.js';
import { auditAmount, auditLine } from '../common/auditFile.js';
import { eachNamedRow, lettersOf } from '../common/csvRecords.js';
import { EntryGrouper, type LedgerEntry, type Problem } from '../ledgerCsv.js';
import { count, readExport, type LedgerFormatDefinition } from '../format.js';

/**
 * Wave's "Account Transactions" export: one row per posting, the rows of a transaction together
 * under its `Transaction ID` (18 or 19 digits: read as text, never as a number). Amounts come
 * twice — `Debit Amount (Two Column Approach)` and `Credit Amount (Two Column Approach)`, and an
 * `Amount (One column)` signed by the account's type — and the two columns are what is posted.
 * Accounts are typed by the `Account Group` and `Account Type` Wave writes beside them (a type
 * it names, else its group). Rows of zero are left out and counted; an unnamed column (` `) is
 * left alone.
 */

export interface WaveFacts {
  transactions: number;
  rows: number;
  zeroRows: number;
}

/** The header of a Wave export: its Transaction ID and two-column amounts. */
export const looksLikeWave = (headerLine: string) =>
  /transaction id/i.test(headerLine) && /two column approach/i.test(headerLine);

/** Wave's account types, as its chart names them. */
const WAVE_TYPES: Record<string, AccountType> = {
  'cash and bank': 'Cash',
  'money in transit': 'Other Current Assets',
  'accounts receivable': 'Accounts Receivable',
  inventory: 'Inventory',
  'property, plant, equipment': 'Fixed Assets',
  'depreciation and amortization': 'Fixed Assets',
  'vendor prepayments and vendor credits': 'Prepaid Expenses',
  'other short-term asset': 'Other Current Assets',
  'other long-term asset': 'Other Assets',
  'credit card': 'Credit Cards',
  'loan and line of credit': 'Short-Term Loans',
  'accounts payable': 'Accounts Payable',
  'sales taxes': 'Other Current Liabilities',
  'due for payroll': 'Payroll Liabilities',
  'due to you and other business owners': 'Other Liabilities',
  'customer prepayments and customer credits': 'Other Current Liabilities',
  'other short-term liability': 'Other Current Liabilities',
  'other long-term liability': 'Long-Term Loans',
  'business owner contribution and drawing': 'Equity',
  'retained earnings: profit': 'Equity',
  'retained earnings': 'Equity',
  income: 'Income',
  discount: 'Income',
  'other income': 'Other Income',
  'gain on foreign exchange': 'Other Income',
  'operating expense': 'Operating Expenses',
  'cost of goods sold': 'COGS',
  'payment processing fee': 'Operating Expenses',
  'payroll expense': 'Operating Expenses',
  'loss on foreign exchange': 'Other Expenses',
};

/** Wave's account groups, for a type it does not name. */
const WAVE_GROUPS: Record<string, AccountType> = {
  asset: 'Other Current Assets',
  liability: 'Other Current Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Operating Expenses',
};

/** The type of an account Wave writes with this type and group. */
export const waveType = (type: string, group: string): AccountType | undefined =>
  WAVE_TYPES[type.trim().toLowerCase()] ?? WAVE_GROUPS[group.trim().toLowerCase()];

/** The entries of a Wave export; problems go to `report`. */
export async function* readWave(
  file: string,
  options: { encoding?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: WaveFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: WaveFacts = { transactions: 0, rows: 0, zeroRows: 0 };
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(
    true,
    (entry) => {
      facts.transactions += 1;
      ready.push(entry);
    },
    report,
  );
  let hash = '';
  for await (const { field, fileLine } of eachNamedRow(
    file,
    { encoding: options.encoding },
    lettersOf,
    onLine,
    (digest) => (hash = digest),
  )) {
    yield* ready;
    ready.length = 0;
    facts.rows += 1;
    const id = field('transactionid');
    const date = field('transactiondate');
    if (!isCalendarDay(date)) {
      report({ fileLine, message: `Transaction Date "${date}" is not a date (YYYY-MM-DD)` });
      continue;
    }
    const debit = auditAmount(field('debitamounttwocolumnapproach'), fileLine, 'the debit', report);
    const credit = auditAmount(
      field('creditamounttwocolumnapproach'),
      fileLine,
      'the credit',
      report,
    );
    if (debit === undefined || credit === undefined) continue;
    const cents = subtractCents(debit, credit);
    if (cents === ZERO_CENTS) {
      facts.zeroRows += 1;
      continue;
    }
    const name = field('accountname');
    const description = field('transactionlinedescription') || field('transactiondescription');
    grouper.add(
      auditLine(
        {
          fileLine,
          date,
          entry: id,
          description,
          memo: [field('transactiondescription'), field('notesmemo')]
            .filter(Boolean)
            .join(' — ')
            .slice(0, 1000),
        },
        { code: '', name, type: waveType(field('accounttype'), field('accountgroup')) },
        cents,
      ),
    );
  }
  grouper.finish();
  yield* ready;
  onEnd(hash, facts);
}

/** Wave's "Account Transactions" export. */
export const wave: LedgerFormatDefinition = {
  name: 'wave',
  title: 'Wave Account Transactions',
  detect: (_head, firstLine) => looksLikeWave(firstLine),
  toldBy:
    'read as a Wave "Account Transactions" export: its header has Transaction ID and two-column amounts',
  fromSheet: true,
  read: (file, _head, options, result) =>
    readExport<WaveFacts>(
      result,
      (...hooks) => readWave(file, { encoding: options.encoding }, ...hooks),
      (facts) => [
        `Wave: ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.rows, 'row', 'rows')}; posted from the two-column Debit and Credit amounts (the one-column Amount, signed by account type, left aside); accounts typed by the Account Type and Account Group Wave writes`,
        facts.zeroRows > 0 && `Wave: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
      ],
    ),
};
