import {
  isProfitAndLoss,
  type AccountType,
  type CashFlow,
  type CashFlowSummary,
} from '../../../api/index.js';
import {
  addCents,
  centsToAmount,
  negateCents,
  subtractCents,
  sumCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import {
  movements,
  reportHeader,
  sum,
  sumColumns,
  toAmounts,
  type ReportInput,
  type ReportSpec,
} from './ledgerData.js';

const SECTION_TYPES: ['Operating' | 'Investing' | 'Financing', AccountType[]][] = [
  [
    'Operating',
    [
      'Accounts Receivable',
      'Inventory',
      'Other Current Assets',
      'Prepaid Expenses',
      'Accounts Payable',
      'Credit Cards',
      'Payroll Liabilities',
      'Other Current Liabilities',
    ],
  ],
  ['Investing', ['Investments', 'Fixed Assets', 'Intangible Assets', 'Other Assets']],
  ['Financing', ['Short-Term Loans', 'Long-Term Loans', 'Other Liabilities', 'Equity']],
];

/**
 * Cash flow by the indirect method: net income, then each non-cash balance sheet account's
 * change as its effect on cash (credits minus debits in the column: an asset that grows uses
 * cash, a liability that grows provides it). Cash is the `Cash`-type accounts, so for every
 * column netCashChange = ending − beginning = operating + investing + financing.
 */
export function cashFlow(spec: ReportSpec, input: ReportInput): CashFlow {
  const columns = input.periods.length;
  const movement = movements(input);
  const cashEffect = (seq: number): Cents[] =>
    (movement.byPeriod.get(seq) ?? new Array<Cents>(columns).fill(ZERO_CENTS)).map(negateCents);

  const incomeAndExpenses = input.accounts.filter((a) => isProfitAndLoss(a.class));
  const netIncome = sumColumns(
    incomeAndExpenses.map((a) => cashEffect(a.seq)),
    columns,
  );

  const sections = SECTION_TYPES.map(([name, types]) => {
    const accounts = input.accounts.filter(
      (a) => types.includes(a.type) && movement.active.has(a.seq),
    );
    const effects = accounts.map((a) => cashEffect(a.seq));
    const lines = accounts.map((account, index) => ({
      accountCode: account.code,
      accountName: account.name,
      amount: centsToAmount(sum(effects[index]!)),
      amountsByPeriod: toAmounts(effects[index]!),
    }));
    if (name === 'Operating') {
      lines.unshift({
        accountCode: '',
        accountName: 'Net Income',
        amount: centsToAmount(sum(netIncome)),
        amountsByPeriod: toAmounts(netIncome),
      });
      effects.unshift(netIncome);
    }
    return { section: name, lines, totals: sumColumns(effects, columns) };
  });

  const cash = input.accounts.filter((a) => a.type === 'Cash');
  let cashBalance = sumCents(cash.map((a) => movement.opening.get(a.seq) ?? ZERO_CENTS));
  const cashChanges = sumColumns(
    cash.map((a) => movement.byPeriod.get(a.seq) ?? []),
    columns,
  );
  const [operating, investing, financing] = sections.map((s) => s.totals) as [
    Cents[],
    Cents[],
    Cents[],
  ];
  const summaries = input.periods.map((_, index) => {
    const beginning = cashBalance;
    cashBalance = addCents(cashBalance, cashChanges[index]!);
    return {
      beginning,
      ending: cashBalance,
      operating: operating[index]!,
      investing: investing[index]!,
      financing: financing[index]!,
    };
  });
  const present = (s: {
    beginning: Cents;
    ending: Cents;
    operating: Cents;
    investing: Cents;
    financing: Cents;
  }): CashFlowSummary => ({
    beginningCashBalance: centsToAmount(s.beginning),
    endingCashBalance: centsToAmount(s.ending),
    financingActivities: centsToAmount(s.financing),
    investingActivities: centsToAmount(s.investing),
    netCashChange: centsToAmount(subtractCents(s.ending, s.beginning)),
    operatingActivities: centsToAmount(s.operating),
  });
  const whole = {
    beginning: summaries[0]!.beginning,
    ending: summaries[summaries.length - 1]!.ending,
    operating: sum(operating),
    investing: sum(investing),
    financing: sum(financing),
  };
  return {
    ...reportHeader(spec, input.periods),
    sections: sections.map(({ section, lines, totals }) => ({
      section,
      lines,
      total: centsToAmount(sum(totals)),
      totalsByPeriod: toAmounts(totals),
    })),
    summary: present(whole),
    summaryByPeriod: summaries.map(present),
  };
}
