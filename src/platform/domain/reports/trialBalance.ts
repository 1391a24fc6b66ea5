import type { TrialBalance } from '../../../api/index.js';
import {
  addCents,
  centsToAmount,
  negateCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import { movements, reportHeader, type ReportInput, type ReportSpec } from './ledgerData.js';

interface DebitCredit {
  debit: Cents;
  credit: Cents;
}

const sides = (net: Cents): DebitCredit =>
  net >= 0 ? { debit: net, credit: ZERO_CENTS } : { debit: ZERO_CENTS, credit: negateCents(net) };
const present = ({ debit, credit }: DebitCredit) => ({
  debit: centsToAmount(debit),
  credit: centsToAmount(credit),
});

/**
 * Trial balance: each account's balance at each column's end, cumulative from the first
 * posting (no closing entries), on the side where it falls; accounts with a non-zero balance
 * in some column. Debits equal credits in every column; the scalar is the last column.
 */
export function trialBalance(spec: ReportSpec, input: ReportInput): TrialBalance {
  const columns = input.periods.length;
  const movement = movements(input);
  const rows = input.accounts
    .map((account) => {
      let running = movement.opening.get(account.seq) ?? ZERO_CENTS;
      const flows = movement.byPeriod.get(account.seq);
      const balances = Array.from(
        { length: columns },
        (_, index) => (running = addCents(running, flows?.[index] ?? ZERO_CENTS)),
      );
      return { account, balances };
    })
    .filter(({ balances }) => balances.some((net) => net !== 0));
  const totals: DebitCredit[] = Array.from({ length: columns }, () => ({
    debit: ZERO_CENTS,
    credit: ZERO_CENTS,
  }));
  for (const { balances } of rows) {
    balances.forEach((net, index) => {
      const side = sides(net);
      totals[index]!.debit = addCents(totals[index]!.debit, side.debit);
      totals[index]!.credit = addCents(totals[index]!.credit, side.credit);
    });
  }
  return {
    ...reportHeader(spec, input.periods),
    rows: rows.map(({ account, balances }) => {
      const lastSide = sides(balances[balances.length - 1]!);
      return {
        accountCode: account.code,
        accountName: account.name,
        debit: centsToAmount(lastSide.debit),
        credit: centsToAmount(lastSide.credit),
        amountsByPeriod: balances.map((net) => present(sides(net))),
      };
    }),
    totals: present(totals[totals.length - 1]!),
    totalsByPeriod: totals.map(present),
  };
}
