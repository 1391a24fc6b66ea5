import type {
  AccountType,
  ProfitAndLoss,
  ProfitAndLossSectionName,
  ReportLine,
} from '../../../api/index.js';
import { PROFIT_AND_LOSS_SECTIONS } from '../../../api/index.js';
import { addCents, centsToAmount, signedCents, type Cents } from '../../../core/money.js';
import {
  movements,
  naturalFlows,
  reportHeader,
  sum,
  sumColumns,
  toAmounts,
  type ReportInput,
  type ReportSpec,
} from './ledgerData.js';

/** Account sections of the profit and loss, and the types each gathers. */
const ACCOUNT_SECTIONS: [ProfitAndLossSectionName, AccountType[]][] = [
  ['income', ['Income']],
  ['cogs', ['COGS']],
  ['expenses', ['Operating Expenses']],
  ['otherIncome', ['Other Income']],
  ['otherExpenses', ['Other Expenses', 'Tax Expenses']],
];

/**
 * Profit and loss: flows within each column in natural sign, accounts with activity in the
 * range, computed sections following from the others; each scalar is the sum of its columns.
 */
export function profitAndLoss(spec: ReportSpec, input: ReportInput): ProfitAndLoss {
  const columns = input.periods.length;
  const movement = movements(input);
  const sections = new Map<ProfitAndLossSectionName, { lines: ReportLine[]; totals: Cents[] }>();
  for (const [name, types] of ACCOUNT_SECTIONS) {
    const accounts = input.accounts.filter(
      (a) => types.includes(a.type) && movement.active.has(a.seq),
    );
    const flows = accounts.map((account) => naturalFlows(movement, account, columns));
    sections.set(name, {
      lines: accounts.map((account, index) => ({
        accountCode: account.code,
        accountName: account.name,
        amount: centsToAmount(sum(flows[index]!)),
        amountsByPeriod: toAmounts(flows[index]!),
        kind: 'account',
      })),
      totals: sumColumns(flows, columns),
    });
  }
  const totals = (name: ProfitAndLossSectionName) => sections.get(name)!.totals;
  const combine = (a: Cents[], b: Cents[], sign: 1 | -1) =>
    a.map((value, i) => addCents(value, signedCents(b[i]!, sign)));
  const grossProfit = combine(totals('income'), totals('cogs'), -1);
  const netOperatingIncome = combine(grossProfit, totals('expenses'), -1);
  const netOtherIncome = combine(totals('otherIncome'), totals('otherExpenses'), -1);
  const netIncome = combine(netOperatingIncome, netOtherIncome, 1);
  sections.set('grossProfit', { lines: [], totals: grossProfit });
  sections.set('netOperatingIncome', { lines: [], totals: netOperatingIncome });
  sections.set('netOtherIncome', { lines: [], totals: netOtherIncome });
  sections.set('netIncome', { lines: [], totals: netIncome });

  return {
    ...reportHeader(spec, input.periods),
    sections: PROFIT_AND_LOSS_SECTIONS.map((name) => {
      const { lines, totals: columnTotals } = sections.get(name)!;
      return {
        section: name,
        lines,
        total: centsToAmount(sum(columnTotals)),
        totalsByPeriod: toAmounts(columnTotals),
      };
    }),
  };
}
