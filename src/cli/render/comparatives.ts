import type { Comparison } from '../../core/periods.js';
import { tidyRows, type Statement, type StatementRow } from './statements.js';

/**
 * Comparative statements, built from two of the platform's own reports (so against any
 * platform): the statement asked for and the same statement over the comparison range (a year
 * back, or one period back), matched row by row. Each period column gets beside it the
 * comparison period's amount, the change (this period less the comparison) and the change in
 * percent of the comparison's size (blank when that is zero).
 */

/** What identifies a row in both statements: an account by its code and name, else its label. */
const rowKey = (row: StatementRow) =>
  [row.section, row.kind, row.account ? `${row.account.code} ${row.account.name}` : row.label].join(
    '\u0000',
  );

/**
 * `statement` with its comparison beside it. Rows are matched by section and account (or label
 * for totals); an account in the comparison only is put in its section, in code order, its
 * amounts zero. `total` replaces the comparison of the last column (the prior
 * period of a whole multi-period range: the range before it, not the months before each).
 */
export function compareStatements(
  statement: Statement,
  comparison: Statement,
  options: {
    compare: Comparison;
    labels: string[];
    total?: Statement | undefined;
    /** False: the comparison's columns after the statement's, no change or percent. */
    changes?: boolean;
  },
): Statement {
  const width = statement.columns.length;
  const comparedValues = (row: StatementRow | undefined, total: StatementRow | undefined) =>
    Array.from({ length: width }, (_, i) =>
      options.total && i === width - 1 ? (total?.values[0] ?? null) : (row?.values[i] ?? null),
    );
  const theirs = new Map(comparison.rows.map((row) => [rowKey(row), row]));
  const totals = new Map((options.total?.rows ?? []).map((row) => [rowKey(row), row]));
  const ours = new Set(statement.rows.map(rowKey));
  const rows: StatementRow[] = statement.rows.map((row) => ({
    ...row,
    comparisons: comparedValues(theirs.get(rowKey(row)), totals.get(rowKey(row))),
  }));
  // Accounts the comparison has and this period has not.
  const only = [...comparison.rows, ...(options.total?.rows ?? [])].filter(
    (row, i, all) =>
      row.kind === 'line' &&
      !ours.has(rowKey(row)) &&
      all.findIndex((other) => rowKey(other) === rowKey(row)) === i,
  );
  for (const row of only) {
    const key = rowKey(row);
    const added: StatementRow = {
      ...row,
      values: Array.from({ length: width }, () => null),
      comparisons: comparedValues(theirs.get(key), totals.get(key)),
    };
    // In code order among the section's accounts, else after its last row before the total.
    const code = row.account?.code ?? '';
    const before = rows.findIndex(
      (r) => r.section === row.section && r.kind === 'line' && (r.account?.code ?? '') > code,
    );
    const lastOfSection = rows.findLastIndex(
      (r) => r.section === row.section && r.kind !== 'total',
    );
    rows.splice(before >= 0 ? before : lastOfSection + 1, 0, added);
  }
  const periods = comparison.tidy.periods.map((period, i) =>
    options.total && i === width - 1 ? options.total.tidy.periods[0]! : period,
  );
  return {
    ...statement,
    rows,
    tidy: { periods: statement.tidy.periods, rows: tidyRows(rows) },
    comparison: {
      compare: options.compare,
      labels: options.labels,
      periods,
      ...(options.changes === false && { changes: false }),
    },
  };
}
