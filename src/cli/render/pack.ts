import type { ProfitAndLoss } from '../../api/index.js';
import {
  addCents,
  answeredAmountToCents,
  centsToAmount,
  subtractCents,
  type Cents,
} from '../../core/money.js';
import { comparedCell } from './comparedCells.js';
import type { Statement, StatementRow } from './statements.js';

/**
 * What a month-end pack's workbook and PDF share: the heading every sheet and page carries, the
 * key figures, a statement's columns and cells (the comparative ones as the terminal shows them:
 * amount, comparison, change, change in percent), and the months of the summary's chart.
 */

/** What every sheet and page of a pack says at its top. */
export interface PackHeading {
  entity: string;
  /** `2025-01-01 to 2025-01-31` */
  period: string;
  basis: string;
  /** When the pack was prepared, as the person reads it. */
  preparedAt: string;
}

/** A key figure of the summary, with its comparison when the pack has one. */
export interface KeyFigure {
  label: string;
  amount: number;
  comparison?: number | undefined;
}

/** The PDF's paper sizes. */
export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

export interface PackColumn {
  heading: string;
  kind: 'amount' | 'percent';
}

/** A statement's columns, as its comparative cells go: amount, comparison, change, %. */
export function packColumns(statement: Statement): PackColumn[] {
  const compared = statement.comparison;
  if (compared?.changes === false)
    return [...statement.columns, ...compared.labels].map((heading) => ({
      heading,
      kind: 'amount',
    }));
  return statement.columns.flatMap((column, i): PackColumn[] =>
    compared
      ? [
          { heading: column, kind: 'amount' },
          { heading: compared.labels[i]!, kind: 'amount' },
          { heading: 'Change', kind: 'amount' },
          { heading: '%', kind: 'percent' },
        ]
      : [{ heading: column, kind: 'amount' }],
  );
}

/** A statement row's cells, one per column: amounts, percents (12.5), null where none. */
export function packCells(statement: Statement, row: StatementRow): (number | null)[] {
  const compared = statement.comparison;
  if (compared?.changes === false)
    return [
      ...statement.columns.map((_, i) => row.values[i] ?? null),
      ...statement.columns.map((_, i) => row.comparisons?.[i] ?? null),
    ];
  return statement.columns.flatMap((_, i) => {
    const amount = row.values[i] ?? null;
    if (!compared) return [amount];
    if (row.kind === 'heading') return [null, null, null, null];
    const cell = comparedCell(amount, row.comparisons?.[i] ?? null);
    return [cell.amount, cell.comparison, cell.change, cell.changePercent];
  });
}

/** The key figures' columns: the amount and, when compared, the comparison, change and %. */
export function figureColumns(comparisonLabel: string | undefined): PackColumn[] {
  return comparisonLabel === undefined
    ? [{ heading: 'Amount', kind: 'amount' }]
    : [
        { heading: 'Amount', kind: 'amount' },
        { heading: comparisonLabel, kind: 'amount' },
        { heading: 'Change', kind: 'amount' },
        { heading: '%', kind: 'percent' },
      ];
}

/** A key figure's cells: the amount and, when compared, the comparison, change and percent. */
export function figureCells(figure: KeyFigure, compared: boolean): (number | null)[] {
  if (!compared) return [figure.amount];
  const cell = comparedCell(figure.amount, figure.comparison ?? 0);
  return [cell.amount, cell.comparison, cell.change, cell.changePercent];
}

/** One month of the summary's chart, in amounts. */
export interface MonthResult {
  /** `2026-01` */
  month: string;
  income: number;
  expenses: number;
  netIncome: number;
}

const INCOME_SECTIONS = new Set(['income', 'otherIncome']);
const EXPENSE_SECTIONS = new Set(['cogs', 'expenses', 'otherExpenses']);

/**
 * Income (operating and other), expenses (cost of goods sold, operating and other) and net
 * income of each month of a P&L grouped by month. Net income is the report's own; income less
 * expenses equals it by the P&L's arithmetic.
 */
export function monthlyResults(report: ProfitAndLoss): MonthResult[] {
  const sumOf = (sections: Set<string>, i: number) =>
    report.sections
      .filter((s) => sections.has(s.section))
      .reduce<Cents>(
        (total, s) => addCents(total, answeredAmountToCents(s.totalsByPeriod[i] ?? 0)),
        0 as Cents,
      );
  const net = report.sections.find((s) => s.section === 'netIncome');
  return report.periods.map((period, i) => {
    const income = sumOf(INCOME_SECTIONS, i);
    const expenses = sumOf(EXPENSE_SECTIONS, i);
    return {
      month: period.startDate.slice(0, 7),
      income: centsToAmount(income),
      expenses: centsToAmount(expenses),
      netIncome: net
        ? (net.totalsByPeriod[i] ?? 0)
        : centsToAmount(subtractCents(income, expenses)),
    };
  });
}

/** Whether a statement has any amount other than zero (books empty for the period, if not). */
export const hasAmounts = (statement: Statement) =>
  statement.rows.some((row) => row.kind === 'line' && row.values.some(Boolean));
