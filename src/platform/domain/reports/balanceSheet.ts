import type { BalanceSheet, ReportLine } from '../../../api/index.js';
import { addDays, type CalendarDay } from '../../../core/calendar.js';
import {
  addCents,
  centsToAmount,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import { fiscalYearStart } from '../../../core/periods.js';
import {
  last,
  movements,
  naturalBalances,
  reportHeader,
  sumColumns,
  toAmounts,
  type ReportInput,
  type ReportSpec,
} from './ledgerData.js';

/**
 * Net income (credits minus debits of income and expense accounts) accumulated through any
 * day, from the daily sums: what Retained Earnings and Net Income are made of.
 */
export function cumulativeNetIncome(input: ReportInput): (through: CalendarDay) => Cents {
  const classOf = new Map(input.accounts.map((a) => [a.seq, a.class]));
  const byDay = new Map<CalendarDay, Cents>();
  for (const row of input.days) {
    const accountClass = classOf.get(row.accountSeq);
    if (accountClass !== 'Income' && accountClass !== 'Expenses') continue;
    byDay.set(
      row.day,
      addCents(byDay.get(row.day) ?? ZERO_CENTS, subtractCents(row.creditCents, row.debitCents)),
    );
  }
  const days = [...byDay.keys()].sort();
  const running: Cents[] = [];
  days.reduce(
    (total, day, index) => (running[index] = addCents(total, byDay.get(day)!)),
    ZERO_CENTS,
  );
  return (through) => {
    let low = 0;
    let high = days.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (days[middle]! <= through) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found < 0 ? ZERO_CENTS : running[found]!;
  };
}

/**
 * Balance sheet: balances at each column's end (the scalar is the last column), accounts with
 * a non-zero balance in some column. Equity ends with Retained Earnings (net income of fiscal
 * years before the column's) and Net Income (its fiscal year to the column's end), so that
 * Assets = Liabilities + Equity in every column.
 */
export function balanceSheet(spec: ReportSpec, input: ReportInput): BalanceSheet {
  const columns = input.periods.length;
  const movement = movements(input);
  const netIncomeThrough = cumulativeNetIncome(input);
  const line = (
    accountCode: string,
    accountName: string,
    kind: ReportLine['kind'],
    values: Cents[],
  ): ReportLine => ({
    accountCode,
    accountName,
    amount: centsToAmount(last(values)),
    amountsByPeriod: toAmounts(values),
    kind,
  });
  const section = (label: 'Assets' | 'Liabilities' | 'Equity') => {
    const rows = input.accounts
      .filter((account) => account.class === label)
      .map((account) => ({ account, balances: naturalBalances(movement, account, columns) }))
      .filter(({ balances }) => balances.some((value) => value !== 0));
    const lines = rows.map(({ account, balances }) =>
      line(account.code, account.name, 'account', balances),
    );
    const values = rows.map(({ balances }) => balances);
    if (label === 'Equity') {
      const retained = input.periods.map((p) =>
        netIncomeThrough(addDays(fiscalYearStart(p.endDate, spec.fiscalYearStart), -1)),
      );
      const netIncome = input.periods.map((p, i) =>
        subtractCents(netIncomeThrough(p.endDate), retained[i]!),
      );
      lines.push(line('', 'Retained Earnings', 'retained_earnings', retained));
      lines.push(line('', 'Net Income', 'net_income', netIncome));
      values.push(retained, netIncome);
    }
    const totals = sumColumns(values, columns);
    return { label, lines, total: centsToAmount(last(totals)), totalsByPeriod: toAmounts(totals) };
  };
  return {
    ...reportHeader(spec, input.periods),
    sections: [section('Assets'), section('Liabilities'), section('Equity')],
  };
}
