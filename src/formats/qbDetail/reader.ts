import { addCents, formatCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { eachRecord, lettersOf } from '../common/csvRecords.js';
import {
  count,
  datesSaid,
  readExport,
  type LedgerFormatDefinition,
  type ReadOptions,
} from '../format.js';
import { accountOf } from '../glReport/reader.js';
import type { DateFormat, LedgerEntry, LedgerLine, Problem } from '../ledgerCsv.js';
import {
  reportAmounts,
  reportDate,
  reportDateOrder,
  reportOptions,
  sideLine,
  TAX_CODE_HEADINGS,
  type ReportReadOptions,
} from '../common/reportRows.js';

/**
 * QuickBooks Desktop's "Transaction Detail by Date" report (Reports › Accountant & Taxes), saved
 * as CSV: a title block, a header row (`Type, Date, Num, Name, Memo, Account, Clr, Split,
 * Amount, Balance`, leading empty columns for indentation), then every transaction in date
 * order with all its lines, each on its own account: "the amount of the basic document, plus
 * all of the opposing entries". Unlike a General Ledger it needs no pairing: a transaction's
 * lines are consecutive rows.
 *
 * - Amounts are one Amount column, debits positive and credits negative (QuickBooks' "Amount is
 *   effectively a Debit column"), or Debit and Credit columns when the report is customized so.
 * - A transaction is the consecutive rows of one Type, Date and Num (not Name: each line may
 *   name its own customer or vendor; a row that leaves them
 *   blank continues the one before), closed as soon as its lines balance; lines that never
 *   balance are refused, naming the rows. The user may have taken Type, Num, Name, Memo, Clr,
 *   Split or Balance off the report: Date, Account and the amounts are enough (a day's rows are
 *   then told apart only as they balance).
 * - The TOTAL row (zero in a report of all accounts) is checked against the rows; rows that are
 *   not lines (titles, blank rows, date subtotals) are skipped.
 * - Dates: MM/DD/YYYY or DD/MM/YYYY told over the whole report; where every day reads both ways,
 *   the report's own heading (`April 9 through August 18, 2026`) tells: the order under which
 *   every day falls in its period; else `--date-format`. The rows are held until the report is
 *   read, for that.
 * - A row of 0.00 after its transaction has balanced (a sales tax of nothing) is its last line,
 *   not the first of the next.
 */

export interface QbTransactionDetailFacts {
  rows: number;
  transactions: number;
  zeroRows: number;
  dateFormat: DateFormat;
  amounts: 'Amount' | 'Debit and Credit';
  /** The report's period from its heading, where it told the order of the days. */
  toldByHeading?: string;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The period a report's heading names, as QuickBooks writes it: `April 9 through August 18,
 * 2026`, `December 1, 2025 through January 31, 2026`.
 */
export function headingPeriod(text: string): { from: string; to: string } | undefined {
  const match =
    /^\s*([A-Za-z]+)\s+(\d{1,2})(?:,\s*(\d{4}))?\s+(?:through|to|-|–)\s+([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})\s*$/.exec(
      text,
    );
  if (!match) return undefined;
  const month = (name: string) => MONTHS.indexOf(name.toLowerCase()) + 1;
  const [fromMonth, toMonth] = [month(match[1]!), month(match[4]!)];
  if (fromMonth === 0 || toMonth === 0) return undefined;
  const toYear = Number(match[6]);
  const fromYear = match[3] ? Number(match[3]) : fromMonth > toMonth ? toYear - 1 : toYear;
  const day = (y: number, m: number, d: string) =>
    `${y}-${String(m).padStart(2, '0')}-${d.padStart(2, '0')}`;
  return { from: day(fromYear, fromMonth, match[2]!), to: day(toYear, toMonth, match[5]!) };
}

/**
 * The order of a report's days its heading tells, where they read both ways: the one under
 * which every day falls in the period (undefined when both do, or neither).
 */
function orderInPeriod(
  dates: readonly string[],
  period: { from: string; to: string },
): DateFormat | undefined {
  const fits = (['MM/DD/YYYY', 'DD/MM/YYYY'] as const).filter((order) =>
    dates.every((text) => {
      if (text === '') return true;
      const day = reportDate(text, order);
      return day !== undefined && day >= period.from && day <= period.to;
    }),
  );
  return fits.length === 1 ? fits[0] : undefined;
}

/** Its title, and a header row that names Type, Date, Account and the amounts. */
export function looksLikeQbTransactionDetail(head: string): boolean {
  return (
    /transaction detail by date/i.test(head) &&
    head.split(/\r?\n/).some((row) => headerOf(row.split(/[,;\t]/)) !== undefined)
  );
}

interface Columns {
  type: number | undefined;
  date: number;
  num: number | undefined;
  name: number | undefined;
  memo: number | undefined;
  account: number;
  amount: number | undefined;
  debit: number | undefined;
  credit: number | undefined;
  taxCode: number | undefined;
}

/** The columns of a header row, or undefined when the row is not one. */
function headerOf(record: readonly string[]): Columns | undefined {
  const names = record.map(lettersOf);
  const at = (name: string) => {
    const index = names.indexOf(name);
    return index < 0 ? undefined : index;
  };
  const [type, date, account] = [at('type'), at('date'), at('account')];
  const amount = at('amount');
  const [debit, credit] = [at('debit'), at('credit')];
  // QuickBooks lets the user take columns off the report: Date, Account and the amounts are
  // what a transaction's lines need (Type and Num, when kept, tell transactions of a day apart).
  if (date === undefined || account === undefined) return undefined;
  if (amount === undefined && (debit === undefined || credit === undefined)) return undefined;
  return {
    type,
    date,
    account,
    num: at('num'),
    name: at('name'),
    memo: at('memo'),
    taxCode: TAX_CODE_HEADINGS.map(at).find((index) => index !== undefined),
    amount: debit !== undefined && credit !== undefined ? undefined : amount,
    debit,
    credit,
  };
}

interface Row {
  fileLine: number;
  key: string;
  /** Its transaction's Type and Num, to name the entry by. */
  label: string;
  dateText: string;
  account: string;
  memo: string;
  cents: Cents;
  taxCode: string;
}

/** The entries of a Transaction Detail by Date report; problems go to `report`. */
export async function* readQbTransactionDetail(
  file: string,
  options: ReportReadOptions,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: QbTransactionDetailFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const amount = reportAmounts(report, options.decimalComma);
  const facts: QbTransactionDetailFacts = {
    rows: 0,
    transactions: 0,
    zeroRows: 0,
    dateFormat: 'MM/DD/YYYY',
    amounts: 'Amount',
  };
  let columns: Columns | undefined;
  let hash = '';
  const rows: Row[] = [];
  let stated: { cents: Cents; fileLine: number } | undefined;
  let last: { key: string; dateText: string; label: string } | undefined;
  let period: { from: string; to: string; text: string } | undefined;
  for await (const { record, fileLine } of eachRecord(
    file,
    { encoding: options.encoding },
    onLine,
    (digest) => (hash = digest),
  )) {
    if (!columns) {
      columns = headerOf(record);
      if (columns?.amount === undefined && columns) facts.amounts = 'Debit and Credit';
      // The title block: its period tells the order of the days where they read both ways.
      for (const text of columns ? [] : record) {
        const found = headingPeriod(text);
        if (found) period = { ...found, text: text.trim() };
      }
      continue;
    }
    const cell = (at: number | undefined) => (at === undefined ? '' : (record[at] ?? '').trim());
    const cents = () => {
      if (columns!.amount !== undefined) return amount(cell(columns!.amount), fileLine, 'Amount');
      const debit = amount(cell(columns!.debit), fileLine, 'Debit');
      const credit = amount(cell(columns!.credit), fileLine, 'Credit');
      return debit === undefined || credit === undefined ? undefined : subtractCents(debit, credit);
    };
    const account = cell(columns.account);
    const first = record.find((text) => text.trim() !== '')?.trim() ?? '';
    if (account === '') {
      // Titles, blank rows, subtotals; the report's TOTAL is checked at the end.
      if (/^total$/i.test(first)) {
        const total = cents();
        if (total !== undefined) stated = { cents: total, fileLine };
      }
      continue;
    }
    const line = cents();
    if (line === undefined) continue;
    facts.rows += 1;
    const dateText = cell(columns.date);
    // Not the Name: each line of a transaction may name its own customer or vendor.
    const key = [cell(columns.type), dateText, cell(columns.num)].join('\u0000');
    // A row that leaves its transaction's fields blank continues the one before.
    const label = [cell(columns.type), cell(columns.num)].filter(Boolean).join(' ');
    const own = dateText === '' && last ? last : { key, dateText, label };
    last = own;
    rows.push({
      fileLine,
      key: own.key,
      label: own.label,
      dateText: own.dateText,
      account,
      memo: cell(columns.memo) || cell(columns.name),
      cents: line,
      taxCode: cell(columns.taxCode),
    });
  }
  if (!columns) {
    report({
      fileLine: 1,
      message:
        'no header row naming Date, Account and Amount (or Debit and Credit): not a QuickBooks Transaction Detail report',
    });
    onEnd(hash, facts);
    return;
  }
  const dates = rows.map((row) => row.dateText);
  const told = options.dateFormat ?? (period && orderInPeriod(dates, period));
  if (told && !options.dateFormat && period) facts.toldByHeading = period.text;
  const order = reportDateOrder(told, dates, 'MM/DD/YYYY', report, options.usualDateFormat);
  if (order === undefined) {
    onEnd(hash, facts);
    return;
  }
  facts.dateFormat = order;

  let open: { rows: Row[]; sum: Cents } | undefined;
  const made: LedgerEntry[] = [];
  let sum = ZERO_CENTS;
  const close = (group: { rows: Row[]; sum: Cents }) => {
    const [head] = group.rows;
    const date = reportDate(head!.dateText, order);
    if (date === undefined) {
      report({
        fileLine: head!.fileLine,
        message: `Date "${head!.dateText}" is not a date`,
      });
      return;
    }
    if (group.sum !== 0) {
      report({
        fileLine: head!.fileLine,
        message: `the transaction of lines ${head!.fileLine}-${group.rows.at(-1)!.fileLine} does not balance: ${formatCents(group.sum)} left over (a report filtered to some accounts holds one side only)`,
      });
      return;
    }
    const entry = `${head!.label ? `${head!.label} ` : ''}(line ${head!.fileLine})`;
    const lines: LedgerLine[] = group.rows
      .filter((row) => row.cents !== 0)
      .map((row) => {
        const { code, name } = accountOf(row.account);
        return sideLine({
          fileLine: row.fileLine,
          date,
          code,
          name,
          cents: row.cents,
          memo: row.memo,
          entry,
          taxCode: row.taxCode,
        });
      });
    if (lines.length === 0) return;
    facts.transactions += 1;
    made.push({ fileLine: head!.fileLine, entry, date, memo: head!.memo, lines });
  };
  let closedKey: string | undefined;
  for (const row of rows) {
    sum = addCents(sum, row.cents);
    if (row.cents === 0) facts.zeroRows += 1;
    // A row of nothing after its transaction balanced (a sales tax of 0.00) is its last line.
    if (!open && row.cents === 0 && row.key === closedKey) continue;
    if (open && open.rows[0]!.key !== row.key && open.sum !== 0) {
      close(open);
      open = undefined;
    }
    open ??= { rows: [], sum: ZERO_CENTS };
    open.rows.push(row);
    open.sum = addCents(open.sum, row.cents);
    if (open.rows.length >= 2 && open.sum === 0) {
      close(open);
      closedKey = row.key;
      open = undefined;
    }
    if (made.length > 0) {
      yield* made;
      made.length = 0;
    }
  }
  if (open) close(open);
  yield* made;
  if (stated !== undefined && stated.cents !== sum) {
    report({
      fileLine: stated.fileLine,
      message: `the report's TOTAL is ${formatCents(stated.cents)}, its rows make ${formatCents(sum)}: the report is cut or was changed`,
    });
  }
  onEnd(hash, facts);
}

/** QuickBooks Desktop's Transaction Detail by Date. */
export const qbTransactionDetail: LedgerFormatDefinition = {
  name: 'qb-detail',
  title: 'QuickBooks Desktop Transaction Detail by Date report',
  detect: (head) => looksLikeQbTransactionDetail(head),
  toldBy:
    'read as a QuickBooks Desktop Transaction Detail by Date report: its title, and a header naming Date, Account and Amount',
  fromSheet: true,
  read: (file, _head, options: ReadOptions, result) =>
    readExport<QbTransactionDetailFacts>(
      result,
      (...hooks) => readQbTransactionDetail(file, reportOptions(options), ...hooks),
      (facts) => [
        `Transaction Detail: ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.rows, 'row', 'rows')}, dates ${datesSaid(facts.dateFormat)}${facts.toldByHeading ? ` (as the report's heading "${facts.toldByHeading}" tells)` : ''}, amounts in ${facts.amounts === 'Amount' ? 'one Amount column, debits positive' : 'Debit and Credit columns'}; each transaction's rows closed as they balance`,
        facts.zeroRows > 0 &&
          `Transaction Detail: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
      ],
    ),
};
