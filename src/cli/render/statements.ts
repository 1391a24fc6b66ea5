import type {
  BalanceSheet,
  CashFlow,
  GeneralLedger,
  ProfitAndLoss,
  TrialBalance,
} from '../../api/index.js';
import {
  absCents,
  addCents,
  answeredAmountToCents,
  centsToAmount,
  formatCents,
} from '../../core/money.js';

/** One row of a rendered statement: a heading, an account line, or a total. */
export interface StatementRow {
  label: string;
  depth: number;
  kind: 'heading' | 'line' | 'total';
  values: (number | null)[];
}

export interface Statement {
  title: string;
  columns: string[];
  rows: StatementRow[];
}

/** Display amounts: thousands separators, negatives in parentheses. */
export function displayAmount(amount: number | null): string {
  if (amount === null) return '';
  const cents = answeredAmountToCents(amount);
  const text = formatCents(absCents(cents));
  return cents < 0 ? `(${text})` : text;
}

/** Script-friendly amounts: plain decimals with a minus sign. */
export function plainAmount(amount: number | null): string {
  if (amount === null) return '';
  return formatCents(answeredAmountToCents(amount), { thousands: false });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function periodLabel(groupBy: string, period: { startDate: string; endDate: string }): string {
  const year = period.startDate.slice(0, 4);
  switch (groupBy) {
    case 'month':
      return `${MONTHS[Number(period.startDate.slice(5, 7)) - 1]} ${year}`;
    case 'quarter':
      return `Q${Math.ceil(Number(period.startDate.slice(5, 7)) / 3)} ${year}`;
    case 'year':
      return year;
    case 'week':
      return period.startDate;
    default:
      return `${period.startDate} – ${period.endDate}`;
  }
}

/** Period columns, plus a Total column when there is more than one period. */
function columnsOf(
  report: { groupBy: string; periods: { startDate: string; endDate: string }[] },
  totalLabel: string,
) {
  const periods = report.periods.map((p) => periodLabel(report.groupBy, p));
  return report.periods.length > 1 ? [...periods, totalLabel] : periods;
}

function values(byPeriod: number[], whole: number): number[] {
  return byPeriod.length > 1 ? [...byPeriod, whole] : byPeriod;
}

const PL_TITLES: Record<string, string> = {
  income: 'Income',
  cogs: 'Cost of Goods Sold',
  grossProfit: 'Gross Profit',
  expenses: 'Operating Expenses',
  netOperatingIncome: 'Net Operating Income',
  otherIncome: 'Other Income',
  otherExpenses: 'Other Expenses',
  netOtherIncome: 'Net Other Income',
  netIncome: 'Net Income',
};

const accountLabel = (code: string, name: string) => (code ? `${code} ${name}` : name);

/** A section's account lines, indented one level. */
function accountRows(
  lines: readonly {
    accountCode: string;
    accountName: string;
    amount: number;
    amountsByPeriod: number[];
  }[],
  pick: (byPeriod: number[], whole: number) => number[] = values,
): StatementRow[] {
  return lines.map((line) => ({
    label: accountLabel(line.accountCode, line.accountName),
    depth: 1,
    kind: 'line',
    values: pick(line.amountsByPeriod, line.amount),
  }));
}

export function profitAndLossStatement(report: ProfitAndLoss): Statement {
  const rows: StatementRow[] = [];
  for (const section of report.sections) {
    const title = PL_TITLES[section.section] ?? section.section;
    const totals = values(section.totalsByPeriod, section.total);
    if (
      section.lines.length === 0 &&
      ['grossProfit', 'netOperatingIncome', 'netOtherIncome', 'netIncome'].includes(section.section)
    ) {
      rows.push({ label: title, depth: 0, kind: 'total', values: totals });
      continue;
    }
    rows.push({ label: title, depth: 0, kind: 'heading', values: [] });
    rows.push(...accountRows(section.lines));
    rows.push({ label: `Total ${title}`, depth: 0, kind: 'total', values: totals });
  }
  return { title: 'Profit and Loss', columns: columnsOf(report, 'Total'), rows };
}

export function balanceSheetStatement(report: BalanceSheet): Statement {
  const rows: StatementRow[] = [];
  const lastOf = (byPeriod: number[], whole: number) => (byPeriod.length > 1 ? byPeriod : [whole]);
  for (const section of report.sections) {
    rows.push({ label: section.label, depth: 0, kind: 'heading', values: [] });
    rows.push(...accountRows(section.lines, lastOf));
    rows.push({
      label: `Total ${section.label}`,
      depth: 0,
      kind: 'total',
      values: lastOf(section.totalsByPeriod, section.total),
    });
  }
  const [, liabilities, equity] = report.sections;
  if (liabilities && equity) {
    rows.push({
      label: 'Total Liabilities and Equity',
      depth: 0,
      kind: 'total',
      values: liabilities.totalsByPeriod.map((value, i) =>
        centsToAmount(
          addCents(answeredAmountToCents(value), answeredAmountToCents(equity.totalsByPeriod[i]!)),
        ),
      ),
    });
  }
  // Positions: a column per period end, no Total column.
  const columns = report.periods.map((p) =>
    report.groupBy === 'total' ? `As of ${p.endDate}` : periodLabel(report.groupBy, p),
  );
  return { title: 'Balance Sheet', columns, rows };
}

export function cashFlowStatement(report: CashFlow): Statement {
  const rows: StatementRow[] = [];
  for (const section of report.sections) {
    rows.push({ label: `${section.section} Activities`, depth: 0, kind: 'heading', values: [] });
    rows.push(...accountRows(section.lines));
    rows.push({
      label: `Net Cash from ${section.section} Activities`,
      depth: 0,
      kind: 'total',
      values: values(section.totalsByPeriod, section.total),
    });
  }
  const summary = (pick: (s: CashFlow['summary']) => number) =>
    values(report.summaryByPeriod.map(pick), pick(report.summary));
  rows.push({
    label: 'Net Cash Change',
    depth: 0,
    kind: 'total',
    values: summary((s) => s.netCashChange),
  });
  rows.push({
    label: 'Beginning Cash',
    depth: 0,
    kind: 'line',
    values: summary((s) => s.beginningCashBalance),
  });
  rows.push({
    label: 'Ending Cash',
    depth: 0,
    kind: 'total',
    values: summary((s) => s.endingCashBalance),
  });
  return { title: 'Cash Flow', columns: columnsOf(report, 'Total'), rows };
}

export function trialBalanceStatement(report: TrialBalance): Statement {
  const multi = report.periods.length > 1;
  const columns = multi
    ? report.periods.flatMap((p) => [`${periodLabel(report.groupBy, p)} Debit`, 'Credit'])
    : ['Debit', 'Credit'];
  const rows: StatementRow[] = report.rows.map((row) => ({
    label: accountLabel(row.accountCode, row.accountName),
    depth: 0,
    kind: 'line',
    values: multi
      ? row.amountsByPeriod.flatMap((a) => [a.debit || null, a.credit || null])
      : [row.debit || null, row.credit || null],
  }));
  rows.push({
    label: 'Total',
    depth: 0,
    kind: 'total',
    values: multi
      ? report.totalsByPeriod.flatMap((t) => [t.debit, t.credit])
      : [report.totals.debit, report.totals.credit],
  });
  return { title: 'Trial Balance', columns, rows };
}

/** The general ledger as rows: per account its opening, its postings, and its closing. */
export function generalLedgerRows(report: GeneralLedger) {
  return report.accounts.flatMap((account) => [
    {
      date: '',
      account: `${account.accountCode} ${account.accountName}`,
      description: 'Opening balance',
      debit: null,
      credit: null,
      balance: account.openingBalance,
    },
    ...account.entries.map((entry) => ({
      date: entry.date.slice(0, 10),
      account: `${account.accountCode} ${account.accountName}`,
      description: entry.description || entry.memo,
      debit: entry.debitAmount,
      credit: entry.creditAmount,
      balance: entry.balance,
    })),
    {
      date: '',
      account: `${account.accountCode} ${account.accountName}`,
      description: 'Closing balance',
      debit: null,
      credit: null,
      balance: account.closingBalance,
    },
  ]);
}

/** Prints a statement in the output's format (JSON is the caller's: the API's own shape). */
export async function printStatement(
  output: { format: string; isTTY: boolean; color: boolean; write(text: string): void },
  statement: Statement,
): Promise<void> {
  const indent = (row: StatementRow) => `${'  '.repeat(row.depth)}${row.label}`;
  if (output.format === 'csv') {
    const { csvField } = await import('../../core/csv.js');
    const lines = [
      ['Account', ...statement.columns],
      ...statement.rows.map((row) => [indent(row), ...row.values.map(plainAmount)]),
    ];
    output.write(lines.map((fields) => fields.map(csvField).join(',')).join('\n') + '\n');
    return;
  }
  if (!output.isTTY) {
    const lines = [
      ['Account', ...statement.columns],
      ...statement.rows.map((row) => [indent(row), ...row.values.map(plainAmount)]),
    ];
    output.write(lines.map((fields) => fields.join('\t')).join('\n') + '\n');
    return;
  }
  const { default: Table } = await import('cli-table3');
  const bold = (text: string) => (output.color ? `\u001b[1m${text}\u001b[22m` : text);
  const table = new Table({
    head: ['', ...statement.columns],
    colAligns: ['left', ...statement.columns.map(() => 'right' as const)],
    style: { head: output.color ? ['cyan'] : [], border: output.color ? ['grey'] : [] },
  });
  for (const row of statement.rows) {
    const label = row.kind === 'line' ? indent(row) : bold(indent(row));
    const cells = statement.columns.map((_, i) => {
      const text = displayAmount(row.values[i] ?? null);
      return row.kind === 'total' ? bold(text) : text;
    });
    table.push([label, ...cells]);
  }
  output.write(`${bold(statement.title)}\n${table.toString()}\n`);
}
