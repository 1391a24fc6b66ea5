import { Type, type Static } from '@sinclair/typebox';
import { CalendarDaySchema, ListQuerySchema, TimestampSchema, UuidSchema } from './common.js';

export const FINANCIAL_ACCOUNT_KINDS = ['bank', 'credit_card'] as const;
export type FinancialAccountKind = (typeof FINANCIAL_ACCOUNT_KINDS)[number];

export const CONNECTION_STATUSES = ['syncing', 'broken'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

const NewFinancialAccount = Type.Object({
  name: Type.String(),
  kind: Type.Union(FINANCIAL_ACCOUNT_KINDS.map((k) => Type.Literal(k))),
});
const ExistingFinancialAccount = Type.Object({ financialAccountId: UuidSchema });

export const CreateBankFeedConnectionBodySchema = Type.Object({
  bankName: Type.String(),
  accounts: Type.Array(Type.Union([NewFinancialAccount, ExistingFinancialAccount]), {
    minItems: 1,
    maxItems: 100,
  }),
  createdByIntegration: Type.Optional(Type.Boolean({ default: true })),
  direct: Type.Optional(Type.Boolean({ default: false })),
});
export type CreateBankFeedConnectionBody = Static<typeof CreateBankFeedConnectionBodySchema>;

export const ConnectedFinancialAccountSchema = Type.Object({
  id: UuidSchema,
  name: Type.String(),
  kind: Type.Union(FINANCIAL_ACCOUNT_KINDS.map((k) => Type.Literal(k))),
  chartAccountId: UuidSchema,
});
export type ConnectedFinancialAccount = Static<typeof ConnectedFinancialAccountSchema>;

export const BankFeedConnectionSchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    bankName: Type.String(),
    status: Type.Union(CONNECTION_STATUSES.map((s) => Type.Literal(s))),
    financialAccounts: Type.Array(ConnectedFinancialAccountSchema),
    /** When it was connected (an addition of the local platform: a close review asks). */
    createdAt: TimestampSchema,
  },
  { title: 'BankFeedConnection' },
);
export type BankFeedConnection = Static<typeof BankFeedConnectionSchema>;

export const BankFeedConnectionResponseSchema = Type.Object({
  connection: BankFeedConnectionSchema,
});

export const CONNECTION_ERROR_CODES = ['disconnected', 'mfa_required'] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

export const BreakConnectionBodySchema = Type.Object({
  errorCode: Type.Union(CONNECTION_ERROR_CODES.map((c) => Type.Literal(c))),
});
export type BreakConnectionBody = Static<typeof BreakConnectionBodySchema>;

export const MAX_PUSHED_TRANSACTIONS = 1000;

export const PushTransactionsBodySchema = Type.Object({
  transactions: Type.Array(
    Type.Object({
      date: CalendarDaySchema,
      amount: Type.Number({ description: 'signed: negative is money out' }),
      description: Type.String({ maxLength: 1000 }),
      externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    }),
    { minItems: 1, maxItems: MAX_PUSHED_TRANSACTIONS },
  ),
});
export type PushTransactionsBody = Static<typeof PushTransactionsBodySchema>;

export const TRANSACTION_STATUSES = ['categorized', 'uncategorized'] as const;

export const BankTransactionSchema = Type.Object(
  {
    id: UuidSchema,
    financialAccountId: UuidSchema,
    date: CalendarDaySchema,
    amount: Type.Number(),
    description: Type.String(),
    accountId: Type.Union([UuidSchema, Type.Null()]),
    ruleId: Type.Union([UuidSchema, Type.Null()]),
    status: Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s))),
  },
  { title: 'BankTransaction' },
);
export type BankTransaction = Static<typeof BankTransactionSchema>;

/**
 * What the list of a workspace's transactions may be narrowed to (additions of the local
 * platform's control plane): an entity, a range of days, categorized or not.
 */
export const ListTransactionsQuerySchema = Type.Object({
  ...ListQuerySchema.properties,
  entityId: Type.Optional(UuidSchema),
  startDate: Type.Optional(CalendarDaySchema),
  endDate: Type.Optional(CalendarDaySchema),
  status: Type.Optional(Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s)))),
});
export type ListTransactionsQuery = Static<typeof ListTransactionsQuerySchema>;
