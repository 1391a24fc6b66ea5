import type { Comparison, Period } from '../../core/periods.js';
import {
  answeredAmountToCents,
  centsToAmount,
  changeInPercent,
  subtractCents,
} from '../../core/money.js';

/*
 * A comparison cell by cell: what statements (the table, the records) and comparative
 * statements (comparatives.ts) both show, kept below them both.
 */

/** How each column of a comparative statement is compared. */
export interface ComparisonColumns {
  compare: Comparison;
  /** The comparison column's heading, one per column of the statement. */
  labels: string[];
  /** The period each column is compared with (tidy records and JSON). */
  periods: Period[];
  /**
   * False: the comparison's columns stand after the statement's, without a change or a percent
   * (a trial balance's sides: Debit, Credit, prior Debit, prior Credit, as an accountant reads a
   * comparative trial balance).
   */
  changes?: boolean;
}

/** One cell's comparison: the amounts and what changed (null: no amount on either side). */
export interface ComparedCell {
  amount: number | null;
  comparison: number | null;
  change: number | null;
  changePercent: number | null;
}

/** A cell of a row with comparisons: the amounts, the change and the percent. */
export function comparedCell(amount: number | null, comparison: number | null): ComparedCell {
  if (amount === null && comparison === null) {
    return { amount, comparison, change: null, changePercent: null };
  }
  const current = answeredAmountToCents(amount ?? 0);
  const base = answeredAmountToCents(comparison ?? 0);
  return {
    amount: amount ?? 0,
    comparison: comparison ?? 0,
    change: centsToAmount(subtractCents(current, base)),
    changePercent: changeInPercent(current, base),
  };
}

/** The change in percent as a terminal shows it: `12.5%`, `-3.0%`, blank without a base. */
export const displayPercent = (percent: number | null): string =>
  percent === null ? '' : `${percent.toFixed(1)}%`;

/** The change in percent in records: `12.5`, blank without a base. */
export const plainPercent = (percent: number | null): string =>
  percent === null ? '' : percent.toFixed(1);
