import type { BalanceSheet, CashFlow, ProfitAndLoss, TrialBalance } from '../../api/index.js';
import {
  absCents,
  addCents,
  answeredAmountToCents,
  centsToAmount,
  formatCents,
  subtractCents,
} from '../../core/money.js';
import {
  comparedCell,
  displayPercent,
  plainPercent,
  type ComparisonColumns,
} from './comparedCells.js';

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
  /** In a comparative statement: the comparison's amount for each column. */
  comparisons?: (number | null)[];
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
    rows: {
      section: string;
      code: string;
      name: string;
      values: (number | null)[];
      comparisons?: (number | null)[] | undefined;
    }[];
  };
  /** A comparative statement's comparison columns (comparatives.ts). */
  comparison?: ComparisonColumns;
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
export function tidyRows(rows: StatementRow[]): Statement['tidy']['rows'] {
  return rows
    .filter((row) => row.kind !== 'heading')
    .map((row) => ({
      section: row.section,
      code: row.account?.code ?? '',
      name: row.account?.name ?? row.label,
      values: row.values,
      ...(row.comparisons && { comparisons: row.comparisons }),
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

/** A month's short name, from its day or `YYYY-MM`: `Jan`. */
export const monthName = (day: string) => MONTHS[Number(day.slice(5, 7)) - 1]!;

/** A month as a column names it, from its day or `YYYY-MM`: `Jan 2026`. */
export const monthLabel = (day: string) => `${monthName(day)} ${day.slice(0, 4)}`;

function periodLabel(groupBy: string, period: { startDate: string; endDate: string }): string {
  const year = period.startDate.slice(0, 4);
  switch (groupBy) {
    case 'month':
      return monthLabel(period.startDate);
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

/** Positions: a column per period's end (`As of …` for one), no Total column. */
const positionColumns = (report: { groupBy: string; periods: Period[] }) =>
  report.periods.map((p) =>
    report.groupBy === 'total' ? `As of ${p.endDate}` : periodLabel(report.groupBy, p),
  );

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
  const columns = positionColumns(report);
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
  return {
    title: 'Trial Balance',
    subtitle: coverage(report),
    columns,
    rows,
    // Tidy: each account's balance (debit less credit) at each period's end.
    tidy: trialBalanceBalances(report).tidy,
  };
}

/**
 * The trial balance as balances (debit less credit, a credit negative), a column per period's
 * end: the form a comparative trial balance takes, each balance beside its comparison.
 */
export function trialBalanceBalances(report: TrialBalance): Statement {
  const multi = report.periods.length > 1;
  // (A balance is a position: the report's whole range ends where its last period does.)
  const balance = (a: { debit: number; credit: number }) =>
    centsToAmount(subtractCents(answeredAmountToCents(a.debit), answeredAmountToCents(a.credit)));
  const rows: StatementRow[] = report.rows.map((row) => ({
    label: accountLabel(row.accountCode, row.accountName),
    depth: 0,
    kind: 'line',
    values: multi ? row.amountsByPeriod.map(balance) : [balance(row)],
    section: 'accounts',
    account: { code: row.accountCode, name: row.accountName },
  }));
  return {
    title: 'Trial Balance',
    subtitle: `${coverage(report)}, balances (debit less credit)`,
    columns: positionColumns(report),
    rows,
    tidy: { periods: periodsOf(report, false), rows: tidyRows(rows) },
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
    const compared = statement.comparison;
    // A period's cells: its amount; in a comparative, then the comparison, change and percent.
    const cells = (row: Statement['tidy']['rows'][number], i: number) => {
      if (!compared) return [plainAmount(row.values[i] ?? null)];
      const cell = comparedCell(row.values[i] ?? null, row.comparisons?.[i] ?? null);
      return [
        plainAmount(cell.amount),
        plainAmount(cell.comparison),
        plainAmount(cell.change),
        plainPercent(cell.changePercent),
      ];
    };
    const comparedHeaders = (p: Period, i: number) => {
      const header = periodHeader(p);
      if (!compared) return [header];
      return [
        header,
        `${compared.compare} ${periodHeader(compared.periods[i]!)}`,
        `change ${header}`,
        `change_percent ${header}`,
      ];
    };
    const comparedPeriod = (i: number) =>
      compared ? [compared.periods[i]!.startDate, compared.periods[i]!.endDate] : [];
    output.writeRecords(
      layout === 'long'
        ? [
            [
              'period_start',
              'period_end',
              'section',
              'account_code',
              'account_name',
              'amount',
              ...(compared
                ? ['comparison_start', 'comparison_end', 'comparison', 'change', 'change_percent']
                : []),
            ],
            ...rows.flatMap((row) =>
              periods.map((p, i) => {
                const [amount, ...comparison] = cells(row, i);
                return [
                  p.startDate,
                  p.endDate,
                  row.section,
                  row.code,
                  row.name,
                  amount!,
                  ...comparedPeriod(i),
                  ...comparison,
                ];
              }),
            ),
          ]
        : [
            ['section', 'account_code', 'account_name', ...periods.flatMap(comparedHeaders)],
            ...rows.map((row) => [
              row.section,
              row.code,
              row.name,
              ...periods.flatMap((_, i) => cells(row, i)),
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
      .map((row) => [row.section, row]),
  );
  const rows = statement.rows
    .filter((row) => {
      if (headed.has(row.section)) return withLines.has(row.section) && row.kind !== 'total';
      const from = DERIVED_FROM[row.section];
      return from === undefined || from.some((section) => withLines.has(section));
    })
    .map((row) => {
      if (row.kind !== 'heading') return row;
      const total = totalOf.get(row.section);
      return { ...row, values: total?.values ?? [], comparisons: total?.comparisons };
    });
  const bold = boldIf(options.color);
  const compared = statement.comparison;
  // Each column's headings and cells: the amount; in a comparative, then the comparison, the
  // change and the percent.
  const headers = statement.columns.flatMap((column, i) =>
    compared ? [column, compared.labels[i]!, 'Change', '%'] : [column],
  );
  const cells = rows.map((row) =>
    statement.columns.flatMap((_, i) => {
      const amount = row.values[i] ?? null;
      if (!compared || (row.kind === 'heading' && row.values.length === 0)) {
        return compared ? [displayAmount(amount), '', '', ''] : [displayAmount(amount)];
      }
      const cell = comparedCell(amount, row.comparisons?.[i] ?? null);
      return [
        displayAmount(cell.amount),
        displayAmount(cell.comparison),
        displayAmount(cell.change),
        displayPercent(cell.changePercent),
      ];
    }),
  );
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((c) => (c[i] ?? '').length)),
  );
  const labels = rows.map((row) => `${'  '.repeat(row.depth)}${row.label}`);
  const longest = Math.max(...labels.map((l) => l.length), 0);
  // A comparative statement too wide for the terminal is shown in blocks of whole periods (each
  // period beside its comparison, change and percent), one under the other, each with the names.
  const group = compared ? 4 : headers.length;
  const span = (from: number, to: number) =>
    widths.slice(from, to).reduce((sum, w) => sum + w + 2, 0);
  const blocks: [number, number][] = [];
  for (let from = 0; from < headers.length;) {
    let to = from + group;
    while (
      compared &&
      to < headers.length &&
      Math.min(longest, MIN_LABEL) + span(from, to + group) <= options.width
    ) {
      to += group;
    }
    blocks.push([from, to]);
    from = to;
  }
  const numbers = Math.max(...blocks.map(([from, to]) => span(from, to)));
  // Names are cut to fit the terminal, but never below MIN_LABEL: past that, a wide report
  // overflows (as hledger's does) rather than losing what its rows are.
  const labelWidth = Math.min(longest, Math.max(MIN_LABEL, options.width - numbers));
  const fit = fitTo(labelWidth);
  const line = (label: string, values: string[], from: number) =>
    `${fit(label)}${values.map((v, i) => `  ${v.padStart(widths[from + i]!)}`).join('')}`.trimEnd();
  const out = [bold(titleOf(options.entity, statement.title, statement.subtitle))];
  for (const [from, to] of blocks) {
    out.push(
      '',
      line('', headers.slice(from, to), from),
      ...rows.map((row, r) => {
        const text = line(labels[r]!, cells[r]!.slice(from, to), from);
        return row.kind === 'line' ? text : bold(text);
      }),
    );
  }
  return `${out.join('\n')}\n`;
}
