import { isProfitAndLoss, type TrialBalance } from '../../../api/index.js';
import { addDays, type CalendarDay } from '../../../core/calendar.js';
import {
  addCents,
  centsToAmount,
  sidesOf,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import { fiscalYearStart } from '../../../core/periods.js';
import { reportHeader, type ReportInput, type ReportSpec } from './ledgerData.js';

type DebitCredit = ReturnType<typeof sidesOf>;
const present = ({ debit, credit }: DebitCredit) => ({
  debit: centsToAmount(debit),
  credit: centsToAmount(credit),
});

/**
 * One account's sums as a running total by day, asked for the balance through any day: the
 * days are its spans' (never straddling a period's or a fiscal year's start), sorted.
 */
class RunningBalance {
  private readonly days: CalendarDay[] = [];
  private readonly totals: Cents[] = [];

  constructor(sums: { day: CalendarDay; net: Cents }[]) {
    sums.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    let total = ZERO_CENTS;
    for (const { day, net } of sums) {
      total = addCents(total, net);
      if (this.days.at(-1) === day) this.totals[this.totals.length - 1] = total;
      else {
        this.days.push(day);
        this.totals.push(total);
      }
    }
  }

  /** Debits less credits through `day`, inclusive. */
  through(day: CalendarDay): Cents {
    let low = 0;
    let high = this.days.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (this.days[middle]! <= day) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found < 0 ? ZERO_CENTS : this.totals[found]!;
  }
}

/**
 * Trial balance as of each column's end, as QuickBooks and Xero print it (local-platform.md,
 * Reports): balance-sheet accounts cumulative from the first posting; income and expense
 * accounts from the start of the fiscal year holding the column's end (the entity's fiscal
 * year, `spec.fiscalYearStart`); the net income of the fiscal years before, in one computed
 * `Retained Earnings` row (`accountCode` `""`, after the accounts, left out when zero in every
 * column) — so that it ties to the balance sheet, whose Retained Earnings it equals. Each row on
 * the side where it falls; debits equal credits in every column; the scalar is the last column.
 *
 * `input.days` are sums over spans that never straddle a period's start nor the start of a
 * column's fiscal year (`splitDays` says which), or sums by day.
 */
export function trialBalance(spec: ReportSpec, input: ReportInput): TrialBalance {
  const start = spec.fiscalYearStart;
  const ends = input.periods.map((period) => period.endDate);
  const yearStarts = ends.map((end) => fiscalYearStart(end, start));
  const byAccount = new Map<number, { day: CalendarDay; net: Cents }[]>();
  for (const row of input.days) {
    const list = byAccount.get(row.accountSeq);
    const sum = { day: row.day, net: subtractCents(row.debitCents, row.creditCents) };
    if (list) list.push(sum);
    else byAccount.set(row.accountSeq, [sum]);
  }
  const retained: Cents[] = ends.map(() => ZERO_CENTS);
  const rows = input.accounts
    .map((account) => {
      const running = new RunningBalance(byAccount.get(account.seq) ?? []);
      const results = isProfitAndLoss(account.class);
      const balances = ends.map((end, index) => {
        if (!results) return running.through(end);
        const before = running.through(addDays(yearStarts[index]!, -1));
        retained[index] = addCents(retained[index]!, before);
        return subtractCents(running.through(end), before);
      });
      return { accountCode: account.code, accountName: account.name, balances };
    })
    .filter(({ balances }) => balances.some((net) => net !== 0));
  if (retained.some((net) => net !== 0))
    rows.push({ accountCode: '', accountName: 'Retained Earnings', balances: retained });
  const totals: DebitCredit[] = ends.map(() => ({ debit: ZERO_CENTS, credit: ZERO_CENTS }));
  for (const { balances } of rows) {
    balances.forEach((net, index) => {
      const side = sidesOf(net);
      totals[index]!.debit = addCents(totals[index]!.debit, side.debit);
      totals[index]!.credit = addCents(totals[index]!.credit, side.credit);
    });
  }
  return {
    ...reportHeader(spec, input.periods),
    rows: rows.map(({ accountCode, accountName, balances }) => {
      const lastSide = sidesOf(balances[balances.length - 1]!);
      return {
        accountCode,
        accountName,
        debit: centsToAmount(lastSide.debit),
        credit: centsToAmount(lastSide.credit),
        amountsByPeriod: balances.map((net) => present(sidesOf(net))),
      };
    }),
    totals: present(totals[totals.length - 1]!),
    totalsByPeriod: totals.map(present),
  };
}

/**
 * The days the trial balance's sums must not straddle: each period's start and the start of
 * the fiscal year holding each period's end, in order, once each.
 */
export function trialBalanceSplits(
  periods: ReportInput['periods'],
  fiscalStart: ReportSpec['fiscalYearStart'],
): CalendarDay[] {
  const days = new Set<CalendarDay>();
  for (const period of periods) {
    days.add(period.startDate);
    days.add(fiscalYearStart(period.endDate, fiscalStart));
  }
  return [...days].sort();
}
