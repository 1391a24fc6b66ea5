import type { AccountClass, AccountType, LedgerBasis } from '../../../api/index.js';
import type { CalendarDay } from '../../../core/calendar.js';
import {
  addCents,
  centsToAmount,
  signedCents,
  subtractCents,
  sumCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import {
  periodIndexOf,
  type FiscalYearStart,
  type GroupBy,
  type Period,
} from '../../../core/periods.js';

/** An account as reports show it, in chart order. */
export interface ReportAccount {
  seq: number;
  id: string;
  code: string;
  name: string;
  type: AccountType;
  class: AccountClass;
}

/** One account's postings on one day, summed (a row of daily balances). */
export interface DailySums {
  accountSeq: number;
  day: CalendarDay;
  debitCents: Cents;
  creditCents: Cents;
  postings: number;
}

/** What a summary report reads: the chart, its columns, and the sums up to the end. */
export interface ReportInput {
  accounts: readonly ReportAccount[];
  periods: readonly Period[];
  /**
   * Sums up to the last period's end, in any order: by day, or (for reports that need only
   * each period's movements) over spans that never straddle a period's start, each dated at
   * a day of its span.
   */
  days: readonly DailySums[];
}

export interface ReportSpec {
  entityId: string;
  startDate: CalendarDay;
  endDate: CalendarDay;
  ledgerBasis: LedgerBasis;
  groupBy: GroupBy;
  /** The entity's fiscal year start, `MM-DD`: where the year's net income begins. */
  fiscalYearStart: FiscalYearStart;
}

/** Debits minus credits per account: before the first column, and within each column. */
export interface Movements {
  opening: Map<number, Cents>;
  byPeriod: Map<number, Cents[]>;
  /** Accounts with at least one posting inside the columns. */
  active: Set<number>;
}

export function movements(input: ReportInput): Movements {
  const opening = new Map<number, Cents>();
  const byPeriod = new Map<number, Cents[]>();
  const active = new Set<number>();
  const first = input.periods[0]!.startDate;
  for (const row of input.days) {
    const net = subtractCents(row.debitCents, row.creditCents);
    if (row.day < first) {
      opening.set(row.accountSeq, addCents(opening.get(row.accountSeq) ?? ZERO_CENTS, net));
      continue;
    }
    const index = periodIndexOf(input.periods, row.day);
    if (index < 0) continue;
    let columns = byPeriod.get(row.accountSeq);
    if (!columns) {
      columns = new Array<Cents>(input.periods.length).fill(ZERO_CENTS);
      byPeriod.set(row.accountSeq, columns);
    }
    columns[index] = addCents(columns[index]!, net);
    if (row.postings > 0) active.add(row.accountSeq);
  }
  return { opening, byPeriod, active };
}

/**
 * Natural sign (local-platform.md §3): income, liability and equity amounts are positive when
 * credits exceed debits; assets and expenses when debits exceed credits.
 */
export function naturalSign(accountClass: AccountClass): 1 | -1 {
  return accountClass === 'Assets' || accountClass === 'Expenses' ? 1 : -1;
}

/** Column flows of an account in natural sign. */
export function naturalFlows(
  movement: Movements,
  account: ReportAccount,
  columns: number,
): Cents[] {
  const sign = naturalSign(account.class);
  const flows = movement.byPeriod.get(account.seq);
  return flows
    ? flows.map((net) => signedCents(net, sign))
    : new Array<Cents>(columns).fill(ZERO_CENTS);
}

/** Column end balances (cumulative from the first posting) of an account in natural sign. */
export function naturalBalances(
  movement: Movements,
  account: ReportAccount,
  columns: number,
): Cents[] {
  const sign = naturalSign(account.class);
  let running = movement.opening.get(account.seq) ?? ZERO_CENTS;
  const flows = movement.byPeriod.get(account.seq);
  return Array.from({ length: columns }, (_, index) => {
    running = addCents(running, flows?.[index] ?? ZERO_CENTS);
    return signedCents(running, sign);
  });
}

export function sumColumns(rows: readonly Cents[][], columns: number): Cents[] {
  const totals = new Array<Cents>(columns).fill(ZERO_CENTS);
  for (const row of rows)
    row.forEach((value, index) => (totals[index] = addCents(totals[index]!, value)));
  return totals;
}

export const sum = (values: readonly Cents[]): Cents => sumCents(values);
export const last = (values: readonly Cents[]): Cents => values[values.length - 1] ?? ZERO_CENTS;
export const toAmounts = (values: readonly Cents[]): number[] => values.map(centsToAmount);

/** The fields every grouped report starts with. */
export function reportHeader(spec: ReportSpec, periods: readonly Period[]) {
  return {
    entityId: spec.entityId,
    startDate: spec.startDate,
    endDate: spec.endDate,
    ledgerBasis: spec.ledgerBasis,
    groupBy: spec.groupBy,
    periods: periods.map(({ startDate, endDate }) => ({ startDate, endDate })),
  };
}
