import type { BalanceSheet, CashFlow, ProfitAndLoss, TrialBalance } from '../../api/index.js';
import {
  absCents,
  addCents,
  answeredAmountToCents,
  centsToAmount,
  formatCents,
  subtractCents,
} from '../../core/money.js';

/** One row of a rendered statement: a heading, an account line, or a total. */
export interface StatementRow {
  label: string;
  depth: number;
  kind: 'heading' | 'line' | 'total';
  values: (number | null)[];
  /** The section it belongs to (`income`, `assets`, `operating`), for tidy records. */
  section: string;
  /** An account line's account. */
  account?: { code: string; name: string };
}

export interface Period {
  startDate: string;
  endDate: string;
}

export interface Statement {
  title: string;
  /** What it covers: `2025-01-01 to 2025-12-31, cash basis`. */
  subtitle?: string;
  columns: string[];
  rows: StatementRow[];
  /**
   * The statement as tidy records: every row the same fields, one value per period (the last
   * period spans the report when it has a Total column). The trial balance's value is each
   * account's balance at the period's end, debit less credit.
   */
  tidy: {
    periods: Period[];
    rows: { section: string; code: string; name: string; values: (number | null)[] }[];
  };
}

/** What a report covers, as its title says it. */
export const coverage = (report: { startDate: string; endDate: string; ledgerBasis: string }) =>
  `${report.startDate} to ${report.endDate}, ${report.ledgerBasis} basis`;

/** A report's title at a terminal: `Entity: Report, 2025-01-01 to 2025-12-31, cash basis`. */
export const titleOf = (entity: string | undefined, title: string, subtitle?: string) =>
  [[entity, title].filter(Boolean).join(': '), subtitle].filter(Boolean).join(', ');

/** Bold text when the output has color. */
export const boldIf =
  (color: boolean) =>
  (text: string): string =>
    color ? `\u001b[1m${text}\u001b[22m` : text;

/** Text padded to `width`, or cut to it with … (a name that does not fit the terminal). */
export const fitTo =
  (width: number) =>
  (text: string): string =>
    text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;

/** The periods of a statement's columns: the report's, then its whole range for a Total. */
function periodsOf(
  report: { startDate: string; endDate: string; periods: Period[] },
  total: boolean,
) {
  return total && report.periods.length > 1
    ? [...report.periods, { startDate: report.startDate, endDate: report.endDate }]
    : report.periods;
}

/** The tidy records of a statement's rows: headings left out, totals named by their label. */
function tidyRows(rows: StatementRow[]): Statement['tidy']['rows'] {
  return rows
    .filter((row) => row.kind !== 'heading')
    .map((row) => ({
      section: row.section,
      code: row.account?.code ?? '',
      name: row.account?.name ?? row.label,
      values: row.values,
    }));
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
  section: string,
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
    section,
    account: { code: line.accountCode, name: line.accountName },
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
      rows.push({
        label: title,
        depth: 0,
        kind: 'total',
        values: totals,
        section: section.section,
      });
      continue;
    }
    const key = section.section;
    rows.push({ label: title, depth: 0, kind: 'heading', values: [], section: key });
    rows.push(...accountRows(key, section.lines));
    rows.push({ label: `Total ${title}`, depth: 0, kind: 'total', values: totals, section: key });
  }
  return {
    title: 'Profit and Loss',
    subtitle: coverage(report),
    columns: columnsOf(report, 'Total'),
    rows,
    tidy: { periods: periodsOf(report, true), rows: tidyRows(rows) },
  };
}

export function balanceSheetStatement(report: BalanceSheet): Statement {
  const rows: StatementRow[] = [];
  const lastOf = (byPeriod: number[], whole: number) => (byPeriod.length > 1 ? byPeriod : [whole]);
  for (const section of report.sections) {
    const key = section.label.toLowerCase();
    rows.push({ label: section.label, depth: 0, kind: 'heading', values: [], section: key });
    rows.push(...accountRows(key, section.lines, lastOf));
    rows.push({
      label: `Total ${section.label}`,
      depth: 0,
      kind: 'total',
      values: lastOf(section.totalsByPeriod, section.total),
      section: key,
    });
  }
  const [, liabilities, equity] = report.sections;
  if (liabilities && equity) {
    rows.push({
      label: 'Total Liabilities and Equity',
      depth: 0,
      kind: 'total',
      section: 'liabilitiesAndEquity',
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
  return {
    title: 'Balance Sheet',
    subtitle: coverage(report),
    columns,
    rows,
    tidy: { periods: periodsOf(report, false), rows: tidyRows(rows) },
  };
}

export function cashFlowStatement(report: CashFlow): Statement {
  const rows: StatementRow[] = [];
  for (const section of report.sections) {
    const key = section.section.toLowerCase();
    rows.push({
      label: `${section.section} Activities`,
      depth: 0,
      kind: 'heading',
      values: [],
      section: key,
    });
    rows.push(...accountRows(key, section.lines));
    rows.push({
      label: `Net Cash from ${section.section} Activities`,
      depth: 0,
      kind: 'total',
      values: values(section.totalsByPeriod, section.total),
      section: key,
    });
  }
  const summary = (pick: (s: CashFlow['summary']) => number) =>
    values(report.summaryByPeriod.map(pick), pick(report.summary));
  rows.push({
    label: 'Net Cash Change',
    depth: 0,
    kind: 'total',
    section: 'summary',
    values: summary((s) => s.netCashChange),
  });
  rows.push({
    label: 'Beginning Cash',
    depth: 0,
    kind: 'line',
    section: 'summary',
    values: summary((s) => s.beginningCashBalance),
  });
  rows.push({
    label: 'Ending Cash',
    depth: 0,
    kind: 'total',
    section: 'summary',
    values: summary((s) => s.endingCashBalance),
  });
  return {
    title: 'Cash Flow',
    subtitle: coverage(report),
    columns: columnsOf(report, 'Total'),
    rows,
    tidy: { periods: periodsOf(report, true), rows: tidyRows(rows) },
  };
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
    section: 'accounts',
    account: { code: row.accountCode, name: row.accountName },
  }));
  rows.push({
    label: 'Total',
    depth: 0,
    kind: 'total',
    values: multi
      ? report.totalsByPeriod.flatMap((t) => [t.debit, t.credit])
      : [report.totals.debit, report.totals.credit],
    section: 'accounts',
  });
  // Tidy: each account's balance (debit less credit) per period, and the whole range's.
  const balance = (a: { debit: number; credit: number }) =>
    centsToAmount(subtractCents(answeredAmountToCents(a.debit), answeredAmountToCents(a.credit)));
  // (A balance is a position: the report's whole range ends where its last period does.)
  const tidy = report.rows.map((row) => ({
    section: 'accounts',
    code: row.accountCode,
    name: row.accountName,
    values: multi ? row.amountsByPeriod.map(balance) : [balance(row)],
  }));
  return {
    title: 'Trial Balance',
    subtitle: coverage(report),
    columns,
    rows,
    tidy: { periods: periodsOf(report, false), rows: tidy },
  };
}

/** How a statement goes out as records: a row per account (`wide`) or a row per cell (`long`). */
export type RecordLayout = 'wide' | 'long';

/** A period as a column's header: `2025-01-01..2025-01-31`. */
const periodHeader = (p: Period) => `${p.startDate}..${p.endDate}`;

/**
 * Prints a statement in the output's format (JSON is the caller's: the API's own shape). As
 * records (CSV, TSV, or piped) it is tidy: `section,account_code,account_name` and a column per
 * period headed by its dates, or with `long` one row per cell
 * (`period_start,period_end,section,account_code,account_name,amount`).
 */
export function printStatement(
  output: {
    color: boolean;
    width: number;
    asRecords: boolean;
    write(text: string): void;
    writeRecords(records: readonly (readonly string[])[]): void;
  },
  statement: Statement,
  options: { layout?: RecordLayout; entity?: string } = {},
): void {
  const layout = options.layout ?? 'wide';
  if (output.asRecords) {
    const { periods, rows } = statement.tidy;
    output.writeRecords(
      layout === 'long'
        ? [
            ['period_start', 'period_end', 'section', 'account_code', 'account_name', 'amount'],
            ...rows.flatMap((row) =>
              periods.map((p, i) => [
                p.startDate,
                p.endDate,
                row.section,
                row.code,
                row.name,
                plainAmount(row.values[i] ?? null),
              ]),
            ),
          ]
        : [
            ['section', 'account_code', 'account_name', ...periods.map(periodHeader)],
            ...rows.map((row) => [
              row.section,
              row.code,
              row.name,
              ...periods.map((_, i) => plainAmount(row.values[i] ?? null)),
            ]),
          ],
    );
    return;
  }
  output.write(
    terminalStatement(statement, { ...options, color: output.color, width: output.width }),
  );
}

/** The narrowest an account's name is cut to at a terminal. */
const MIN_LABEL = 28;

/** Totals computed from other sections, shown only when one of those sections is. */
const DERIVED_FROM: Record<string, string[]> = {
  grossProfit: ['cogs'],
  netOperatingIncome: ['otherIncome', 'otherExpenses'],
  netOtherIncome: ['otherIncome', 'otherExpenses'],
};

/**
 * A statement as an accountant reads it at a terminal, like hledger's `is -M`: a title (entity,
 * report, period, basis), then compact sections with no rules, each headed by its name and
 * total with its accounts indented under it, then the derived totals (gross profit, net income),
 * negatives in parentheses; sections without accounts are left out. Account
 * names are cut (…) to fit the terminal's width.
 */
export function terminalStatement(
  statement: Statement,
  options: { entity?: string | undefined; color: boolean; width: number },
): string {
  const withLines = new Set(statement.rows.filter((r) => r.kind === 'line').map((r) => r.section));
  const headed = new Set(statement.rows.filter((r) => r.kind === 'heading').map((r) => r.section));
  // A section's heading carries its total, as a parent account does in hledger's tree: one
  // line per section fewer than a separate "Total" row.
  const totalOf = new Map(
    statement.rows
      .filter((row) => row.kind === 'total' && headed.has(row.section))
      .map((row) => [row.section, row.values]),
  );
  const rows = statement.rows
    .filter((row) => {
      if (headed.has(row.section)) return withLines.has(row.section) && row.kind !== 'total';
      const from = DERIVED_FROM[row.section];
      return from === undefined || from.some((section) => withLines.has(section));
    })
    .map((row) =>
      row.kind === 'heading' ? { ...row, values: totalOf.get(row.section) ?? [] } : row,
    );
  const bold = boldIf(options.color);
  const cells = rows.map((row) =>
    statement.columns.map((_, i) => displayAmount(row.values[i] ?? null)),
  );
  const widths = statement.columns.map((header, i) =>
    Math.max(header.length, ...cells.map((c) => (c[i] ?? '').length)),
  );
  const numbers = widths.reduce((sum, w) => sum + w + 2, 0);
  const labels = rows.map((row) => `${'  '.repeat(row.depth)}${row.label}`);
  // Names are cut to fit the terminal, but never below MIN_LABEL: past that, a wide report
  // overflows (as hledger's does) rather than losing what its rows are.
  const longest = Math.max(...labels.map((l) => l.length), 0);
  const labelWidth = Math.min(longest, Math.max(MIN_LABEL, options.width - numbers));
  const fit = fitTo(labelWidth);
  const line = (label: string, values: string[]) =>
    `${fit(label)}${values.map((v, i) => `  ${v.padStart(widths[i]!)}`).join('')}`.trimEnd();
  const out = [
    bold(titleOf(options.entity, statement.title, statement.subtitle)),
    '',
    line('', statement.columns),
    ...rows.map((row, r) => {
      const text = line(labels[r]!, cells[r]!);
      return row.kind === 'line' ? text : bold(text);
    }),
  ];
  return `${out.join('\n')}\n`;
}
