import { Type, type Static } from '@sinclair/typebox';
import { CalendarDaySchema, TimestampSchema, UuidSchema } from './common.js';
import { LedgerBasisSchema, SOURCE_TYPES } from './journalEntries.js';

export const GROUP_BY_VALUES = ['week', 'month', 'quarter', 'year', 'total'] as const;

export const ReportQuerySchema = Type.Object({
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  ledgerBasis: Type.Optional(LedgerBasisSchema),
  groupBy: Type.Optional(
    Type.Union(
      GROUP_BY_VALUES.map((g) => Type.Literal(g)),
      { default: 'total' },
    ),
  ),
});
export type ReportQuery = Static<typeof ReportQuerySchema>;

/** The general ledger takes no groupBy; `accountId` narrows it to one account (an extension). */
export const GeneralLedgerQuerySchema = Type.Object({
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  ledgerBasis: Type.Optional(LedgerBasisSchema),
  accountId: Type.Optional(UuidSchema),
  groupBy: Type.Optional(Type.String({ description: 'not accepted: answers 400' })),
});
export type GeneralLedgerQuery = Static<typeof GeneralLedgerQuerySchema>;

export const PeriodSchema = Type.Object({
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
});

const common = {
  entityId: UuidSchema,
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  ledgerBasis: LedgerBasisSchema,
};
const grouped = {
  ...common,
  groupBy: Type.Union(GROUP_BY_VALUES.map((g) => Type.Literal(g))),
  periods: Type.Array(PeriodSchema, { minItems: 1 }),
};
const Amounts = Type.Array(Type.Number());

export const PROFIT_AND_LOSS_SECTIONS = [
  'income',
  'cogs',
  'grossProfit',
  'expenses',
  'netOperatingIncome',
  'otherIncome',
  'otherExpenses',
  'netOtherIncome',
  'netIncome',
] as const;
export type ProfitAndLossSectionName = (typeof PROFIT_AND_LOSS_SECTIONS)[number];

export const REPORT_LINE_KINDS = ['account', 'retained_earnings', 'net_income'] as const;

export const ReportLineSchema = Type.Object({
  accountCode: Type.String(),
  accountName: Type.String(),
  amount: Type.Number(),
  amountsByPeriod: Amounts,
  kind: Type.Union(REPORT_LINE_KINDS.map((k) => Type.Literal(k))),
});
export type ReportLine = Static<typeof ReportLineSchema>;

export const ProfitAndLossSchema = Type.Object(
  {
    ...grouped,
    sections: Type.Array(
      Type.Object({
        section: Type.Union(PROFIT_AND_LOSS_SECTIONS.map((s) => Type.Literal(s))),
        lines: Type.Array(ReportLineSchema),
        total: Type.Number(),
        totalsByPeriod: Amounts,
      }),
    ),
  },
  { title: 'ProfitAndLoss' },
);

export const BALANCE_SHEET_LABELS = ['Assets', 'Liabilities', 'Equity'] as const;
export const BalanceSheetSchema = Type.Object(
  {
    ...grouped,
    sections: Type.Array(
      Type.Object({
        label: Type.Union(BALANCE_SHEET_LABELS.map((s) => Type.Literal(s))),
        lines: Type.Array(ReportLineSchema),
        total: Type.Number(),
        totalsByPeriod: Amounts,
      }),
    ),
  },
  { title: 'BalanceSheet' },
);

export const CASH_FLOW_SECTIONS = ['Operating', 'Investing', 'Financing'] as const;
export const CashFlowLineSchema = Type.Object({
  accountCode: Type.String(),
  accountName: Type.String(),
  amount: Type.Number(),
  amountsByPeriod: Amounts,
});
export type CashFlowLine = Static<typeof CashFlowLineSchema>;
export const CashFlowSummarySchema = Type.Object({
  beginningCashBalance: Type.Number(),
  endingCashBalance: Type.Number(),
  financingActivities: Type.Number(),
  investingActivities: Type.Number(),
  netCashChange: Type.Number(),
  operatingActivities: Type.Number(),
});
export type CashFlowSummary = Static<typeof CashFlowSummarySchema>;
export const CashFlowSchema = Type.Object(
  {
    ...grouped,
    sections: Type.Array(
      Type.Object({
        section: Type.Union(CASH_FLOW_SECTIONS.map((s) => Type.Literal(s))),
        lines: Type.Array(CashFlowLineSchema),
        total: Type.Number(),
        totalsByPeriod: Amounts,
      }),
    ),
    summary: CashFlowSummarySchema,
    summaryByPeriod: Type.Array(CashFlowSummarySchema),
  },
  { title: 'CashFlow' },
);

const DebitCredit = Type.Object({ debit: Type.Number(), credit: Type.Number() });
export const TrialBalanceSchema = Type.Object(
  {
    ...grouped,
    rows: Type.Array(
      Type.Object({
        accountCode: Type.String(),
        accountName: Type.String(),
        debit: Type.Number(),
        credit: Type.Number(),
        amountsByPeriod: Type.Array(DebitCredit),
      }),
    ),
    totals: DebitCredit,
    totalsByPeriod: Type.Array(DebitCredit),
  },
  { title: 'TrialBalance' },
);

export const GeneralLedgerEntrySchema = Type.Object({
  date: TimestampSchema,
  balance: Type.Number(),
  debitAmount: Type.Union([Type.Number(), Type.Null()]),
  creditAmount: Type.Union([Type.Number(), Type.Null()]),
  description: Type.String(),
  memo: Type.String(),
  counterpartyName: Type.Union([Type.String(), Type.Null()]),
  journalEntryId: UuidSchema,
  sourceType: Type.Union(SOURCE_TYPES.map((s) => Type.Literal(s))),
  /** The posting's tax code, where it carries one (a local-platform addition). */
  taxCode: Type.Optional(Type.String()),
});
export type GeneralLedgerEntry = Static<typeof GeneralLedgerEntrySchema>;
export const GeneralLedgerSchema = Type.Object(
  {
    ...common,
    accounts: Type.Array(
      Type.Object({
        accountId: UuidSchema,
        accountCode: Type.Integer(),
        accountName: Type.String(),
        openingBalance: Type.Number(),
        closingBalance: Type.Number(),
        entries: Type.Array(GeneralLedgerEntrySchema),
      }),
    ),
  },
  { title: 'GeneralLedger' },
);

export type ProfitAndLoss = Static<typeof ProfitAndLossSchema>;
export type BalanceSheet = Static<typeof BalanceSheetSchema>;
export type CashFlow = Static<typeof CashFlowSchema>;
export type TrialBalance = Static<typeof TrialBalanceSchema>;
export type GeneralLedger = Static<typeof GeneralLedgerSchema>;
