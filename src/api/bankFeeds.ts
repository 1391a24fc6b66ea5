import { Type, type Static } from '@sinclair/typebox';
import { UuidSchema } from './common.js';

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
  },
  { title: 'BankFeedConnection' },
);
export type BankFeedConnection = Static<typeof BankFeedConnectionSchema>;

export const BankFeedConnectionResponseSchema = Type.Object({
  connection: BankFeedConnectionSchema,
});
