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
/**
 * An account of the chart the feed posts to (an addition of the local platform: a migrated
 * bank or card account keeps its code, history and balance, where a new account would be its
 * twin): type Cash for a bank, Credit Cards for a card.
 */
const ChartAccountToLink = Type.Object({ chartAccountId: UuidSchema });

export const CreateBankFeedConnectionBodySchema = Type.Object({
  bankName: Type.String(),
  accounts: Type.Array(
    Type.Union([NewFinancialAccount, ExistingFinancialAccount, ChartAccountToLink]),
    {
      minItems: 1,
      maxItems: 100,
    },
  ),
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
  /**
   * The days the statement these lines come from covers (default: their first to last day): a
   * line alike an earlier one is held as a possible duplicate only where the two files overlap.
   */
  period: Type.Optional(Type.Object({ startDate: CalendarDaySchema, endDate: CalendarDaySchema })),
  /**
   * The import these lines belong to (the requests one file is sent in share it): lines of one
   * import are never taken for duplicates of each other, however alike.
   */
  importId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type PushTransactionsBody = Static<typeof PushTransactionsBodySchema>;

/**
 * Where a bank transaction stands: waiting for a decision, decided, left out of the books, or
 * held as a possible duplicate of a line the books hold (posted only when a person says it is
 * not one).
 */
export const TRANSACTION_STATUSES = [
  'uncategorized',
  'categorized',
  'excluded',
  'possible-duplicate',
] as const;

/**
 * The external id of a line the bank gave no reference, as books before 0.1 keyed it: `books:`
 * and a hash of its day, amount and text. Not the bank's reference: lines are told apart by
 * their content where one of the two has no reference of the bank's.
 */
export const DERIVED_REFERENCE = 'books:';

/** Whether an external id is books' own key rather than the bank's reference. */
export const isDerivedReference = (externalId: string | null) =>
  externalId !== null && externalId.startsWith(DERIVED_REFERENCE);
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Who or what decided a transaction's category. */
export const DECIDERS = ['rule', 'person', 'suggestion', 'transfer', 'match'] as const;
export type Decider = (typeof DECIDERS)[number];

/** An account as a transaction names it: its id, code and name. */
export const NamedAccountSchema = Type.Object({
  id: UuidSchema,
  code: Type.String(),
  name: Type.String(),
});
export type NamedAccount = Static<typeof NamedAccountSchema>;

/** One part of a split: an account and the part of the transaction it takes. */
export const SplitPartSchema = Type.Object({
  account: NamedAccountSchema,
  /** In the transaction's direction: the parts add up to its amount (without its sign). */
  amount: Type.Number(),
  memo: Type.Union([Type.String(), Type.Null()]),
});

/**
 * What a decided transaction posts against its bank account: one account, several (a split),
 * another of the entity's bank or card accounts (a transfer, with the other side's transaction
 * when it has arrived), or nothing more (a match: a journal entry already posts it).
 */
export const TransactionCategorySchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('account'),
      account: NamedAccountSchema,
      memo: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Object({ kind: Type.Literal('split'), splits: Type.Array(SplitPartSchema) }),
    Type.Object({
      kind: Type.Literal('transfer'),
      account: NamedAccountSchema,
      transactionId: Type.Union([UuidSchema, Type.Null()]),
    }),
    Type.Object({
      kind: Type.Literal('match'),
      entryId: UuidSchema,
      entryDate: Type.Union([CalendarDaySchema, Type.Null()]),
      entryMemo: Type.Union([Type.String(), Type.Null()]),
    }),
  ],
  { title: 'TransactionCategory' },
);
export type TransactionCategory = Static<typeof TransactionCategorySchema>;

export const SUGGESTION_KINDS = ['account', 'transfer', 'match'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

/**
 * What books would decide for a waiting transaction, learned from the entity's own books (and,
 * where it has no history of the payee, from the firm's other clients), with how sure it is
 * (0–1: at 0.95, at least 95 of 100 such suggestions are right) and why, in words.
 */
export const SuggestionSchema = Type.Object(
  {
    kind: Type.Union(SUGGESTION_KINDS.map((k) => Type.Literal(k))),
    /** The account it would post to (for a transfer the other bank account; for a match the entry's other side). */
    account: Type.String(),
    accountId: UuidSchema,
    accountCode: Type.String(),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    reason: Type.String(),
    /** A transfer: the other side's transaction, when it has arrived. */
    transactionId: Type.Optional(UuidSchema),
    /** A match: the journal entry. */
    entryId: Type.Optional(UuidSchema),
    /**
     * An account: the tax code the client's history gives it (local platform: where the entity
     * keeps codes and most of the account's lines carry one).
     */
    taxCode: Type.Optional(Type.String()),
  },
  { title: 'Suggestion' },
);
export type Suggestion = Static<typeof SuggestionSchema>;

export const BankTransactionSchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    financialAccountId: UuidSchema,
    /** The chart account the bank or card posts to. */
    bankAccount: NamedAccountSchema,
    date: CalendarDaySchema,
    amount: Type.Number({ description: 'signed: negative is money out' }),
    description: Type.String(),
    /** The bank's own reference (the external id it arrived with), or null. */
    reference: Type.Union([Type.String(), Type.Null()]),
    /** The one account it posts to (null while waiting, and for splits, transfers and matches). */
    accountId: Type.Union([UuidSchema, Type.Null()]),
    ruleId: Type.Union([UuidSchema, Type.Null()]),
    status: Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s))),
    category: Type.Union([TransactionCategorySchema, Type.Null()]),
    decidedBy: Type.Union([Type.Union(DECIDERS.map((d) => Type.Literal(d))), Type.Null()]),
    decidedAt: Type.Union([TimestampSchema, Type.Null()]),
    /** Raised by every decision: a decision names the version it was made on. */
    version: Type.Integer({ minimum: 0 }),
    suggestion: Type.Optional(Type.Union([SuggestionSchema, Type.Null()])),
    /** A possible duplicate: the line of the books it may repeat. */
    duplicateOf: Type.Optional(
      Type.Object({
        id: UuidSchema,
        date: CalendarDaySchema,
        amount: Type.Number(),
        description: Type.String(),
      }),
    ),
  },
  { title: 'BankTransaction' },
);
export type BankTransaction = Static<typeof BankTransactionSchema>;

export const BankTransactionResponseSchema = Type.Object({ transaction: BankTransactionSchema });

/** What text and amounts a list of transactions may be narrowed to. */
const TransactionFilters = {
  entityId: Type.Optional(UuidSchema),
  startDate: Type.Optional(CalendarDaySchema),
  endDate: Type.Optional(CalendarDaySchema),
  /** The financial account, or the chart account its bank posts to. */
  accountId: Type.Optional(UuidSchema),
  /** Text the description or the reference contains, in any case. */
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** The bank's reference, exactly. */
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  /** The start of the id or of the bank's reference (as git takes a commit's: four or more characters). */
  prefix: Type.Optional(Type.String({ minLength: 4, maxLength: 255 })),
};

/**
 * What the list of a workspace's transactions may be narrowed to (additions of the local
 * platform's control plane): an entity, a range of days, a status, a bank account, text.
 */
export const ListTransactionsQuerySchema = Type.Object({
  ...ListQuerySchema.properties,
  ...TransactionFilters,
  status: Type.Optional(Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s)))),
});
export type ListTransactionsQuery = Static<typeof ListTransactionsQuerySchema>;

/** The for-review queue of an entity: every waiting transaction, narrowed as a list is. */
export const ForReviewQuerySchema = Type.Object({
  startDate: TransactionFilters.startDate,
  endDate: TransactionFilters.endDate,
  accountId: TransactionFilters.accountId,
  search: TransactionFilters.search,
  suggest: Type.Optional(Type.Boolean({ default: false })),
});
export type ForReviewQuery = Static<typeof ForReviewQuerySchema>;

export const ForReviewResponseSchema = Type.Object({
  data: Type.Array(BankTransactionSchema),
  total: Type.Integer(),
});
