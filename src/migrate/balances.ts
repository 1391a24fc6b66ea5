import type { Account, LedgerBasis, ProfitAndLoss, TrialBalance } from '../api/index.js';
import type { BooksApi } from '../client/index.js';
import { addDays, type CalendarDay } from '../core/calendar.js';
import {
  addCents,
  amountToCents,
  answeredAmountToCents,
  centsToAmount,
  negateCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../core/money.js';
import { byCode } from '../core/names.js';
import type { Period } from '../core/periods.js';

/** The first day any report reads from: before every posting. */
export const FIRST_DAY = '0001-01-01';

/** Each account's balance, debits less credits, by code. */
export type Balances = Map<string, Cents>;

/**
 * Each account's balance (debits less credits, cumulative from the first posting — income and
 * expense accounts too) before a range and at each of its columns' ends, by account code, from
 * the platform's reports: what an import's reconciliation and an export's windows compare with.
 *
 * The trial balance carries balance-sheet accounts cumulative, but starts income and expenses
 * afresh with each fiscal year (their earlier years in one Retained Earnings row), as the
 * platform keeps the entity's fiscal year; those accounts are read from the profit and loss
 * instead (before the range, and within each column), which sums whatever the range, so that a
 * check across a fiscal year's turn compares the same figures as within one.
 */
export async function balancesOverRange(
  api: BooksApi,
  entityId: string,
  query: {
    startDate: CalendarDay;
    endDate: CalendarDay;
    ledgerBasis: LedgerBasis;
    groupBy: 'month' | 'total';
  },
): Promise<{ periods: Period[]; opening: Balances; columns: Balances[] }> {
  const dayBefore = addDays(query.startDate, -1);
  const [trial, trialBefore, results, resultsBefore] = await Promise.all([
    api.reports.trialBalance(entityId, query),
    dayBefore < FIRST_DAY
      ? undefined
      : api.reports.trialBalance(entityId, {
          startDate: dayBefore,
          endDate: dayBefore,
          ledgerBasis: query.ledgerBasis,
        }),
    api.reports.profitAndLoss(entityId, query),
    dayBefore < FIRST_DAY
      ? undefined
      : api.reports.profitAndLoss(entityId, {
          startDate: FIRST_DAY,
          endDate: dayBefore,
          ledgerBasis: query.ledgerBasis,
        }),
  ]);
  const before = resultsBefore ? resultMovements(resultsBefore.report) : [new Map()];
  const within = resultMovements(results.report);
  const resultCodes = new Set([...before[0]!.keys(), ...within.flatMap((c) => [...c.keys()])]);
  const opening = balanceSheetOf(trialBefore?.report, 0, resultCodes);
  for (const [code, cents] of before[0]!) opening.set(code, cents);
  let running = new Map(before[0]!);
  const columns = trial.report.periods.map((_, index) => {
    const balances = balanceSheetOf(trial.report, index, resultCodes);
    const next = new Map(running);
    for (const [code, cents] of within[index] ?? new Map<string, Cents>())
      next.set(code, addCents(next.get(code) ?? ZERO_CENTS, cents));
    running = next;
    for (const [code, cents] of running) balances.set(code, cents);
    return dropZeros(balances);
  });
  return { periods: trial.report.periods, opening: dropZeros(opening), columns };
}

/** Each account's movement over a range (its balance at the end less its balance before). */
export async function movementOverRange(
  api: BooksApi,
  entityId: string,
  query: { startDate: CalendarDay; endDate: CalendarDay; ledgerBasis: LedgerBasis },
): Promise<{ movement: Balances; atEnd: Balances }> {
  const { opening, columns } = await balancesOverRange(api, entityId, {
    ...query,
    groupBy: 'total',
  });
  const atEnd = columns[0]!;
  return { movement: movementBetween(opening, atEnd), atEnd };
}

/** What moved from one set of balances to another, by code (zeros left out). */
export function movementBetween(before: Balances, after: Balances): Balances {
  const movement = new Map<string, Cents>();
  for (const code of new Set([...before.keys(), ...after.keys()])) {
    const moved = subtractCents(after.get(code) ?? ZERO_CENTS, before.get(code) ?? ZERO_CENTS);
    if (moved !== 0) movement.set(code, moved);
  }
  return movement;
}

/** The balance-sheet accounts of a trial balance's column, by code (not its results, not RE). */
function balanceSheetOf(
  report: TrialBalance | undefined,
  column: number,
  resultCodes: ReadonlySet<string>,
): Balances {
  const balances = new Map<string, Cents>();
  for (const row of report?.rows ?? []) {
    if (row.accountCode === '' || resultCodes.has(row.accountCode)) continue;
    const side = row.amountsByPeriod[column]!;
    balances.set(
      row.accountCode,
      subtractCents(amountToCents(side.debit), amountToCents(side.credit)),
    );
  }
  return balances;
}

/** The income and expense accounts' movements in each column, debits less credits, by code. */
function resultMovements(report: ProfitAndLoss): Balances[] {
  const columns: Balances[] = report.periods.map(() => new Map());
  for (const section of report.sections) {
    // Income is shown credit-positive, costs debit-positive (natural signs).
    const credit = section.section === 'income' || section.section === 'otherIncome';
    for (const line of section.lines) {
      if (line.kind !== 'account') continue;
      line.amountsByPeriod.forEach((amount, index) => {
        const natural = answeredAmountToCents(amount);
        columns[index]!.set(line.accountCode, credit ? negateCents(natural) : natural);
      });
    }
  }
  return columns;
}

const dropZeros = (balances: Balances): Balances =>
  new Map([...balances].filter(([, cents]) => cents !== 0));

export { byCode } from '../core/names.js';

/** A trial balance's row as an export's manifest keeps it. */
export interface TrialBalanceRow {
  accountCode: string;
  accountName: string;
  debit: number;
  credit: number;
}

/** Net balances by code as trial balance rows (on the side where each falls), in code order. */
export function balanceRows(balances: Balances, accounts: readonly Account[]): TrialBalanceRow[] {
  const names = new Map(accounts.map((a) => [a.code, a.name]));
  return [...balances]
    .filter(([, net]) => net !== 0)
    .sort(([a], [b]) => byCode(a, b))
    .map(([accountCode, net]) => ({
      accountCode,
      accountName: names.get(accountCode) ?? '',
      debit: net > 0 ? centsToAmount(net) : 0,
      credit: net < 0 ? centsToAmount(negateCents(net)) : 0,
    }));
}
