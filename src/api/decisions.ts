import { Type, type Static } from '@sinclair/typebox';
import { BankTransactionSchema } from './bankFeeds.js';
import { CalendarDaySchema, MAX_BULK_ITEMS, UuidSchema } from './common.js';
import { TaxCodeNameSchema } from './tax.js';

/*
 * Deciding what a bank transaction is (additions of the local platform's sandbox control
 * plane: the hosted API shows no endpoint for it). A decision names the transaction's version
 * it was made on, so that of two made at once one wins and the other is told (409).
 */

export const DECISION_KINDS = [
  'account',
  'split',
  'transfer',
  'match',
  'exclude',
  'uncategorize',
  'not-duplicate',
] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** Splits of one transaction: at least two parts, at most this many. */
export const MAX_SPLIT_PARTS = 50;

export const DecisionSplitSchema = Type.Object({
  accountId: UuidSchema,
  /** In the transaction's direction (a fee taken from a deposit is negative); parts add up to it. */
  amount: Type.Number(),
  classIds: Type.Optional(Type.Array(UuidSchema, { maxItems: 20 })),
  memo: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  /** The part's tax code (the part is VAT-inclusive: it posts as net and VAT). */
  taxCode: Type.Optional(TaxCodeNameSchema),
});

/**
 * One decision. `kind` says which fields it takes: `account` an `accountId` (with `classIds`,
 * `memo`); `split` its `splits`; `transfer` the other side's `otherTransactionId`, or the other bank
 * or card `accountId`, or neither (books finds the other side); `match` an `entryId`; `exclude`
 * and `uncategorize` nothing more; `not-duplicate` (of a line held as a possible duplicate)
 * nothing more: it comes in as any line arrives, the rules take it or it waits. A possible
 * duplicate takes only `exclude` and `not-duplicate`. `decidedBy` says whether a person chose it or took books'
 * suggestion (default `person`).
 */
export const DecisionBodySchema = Type.Object({
  kind: Type.Union(DECISION_KINDS.map((k) => Type.Literal(k))),
  version: Type.Integer({ minimum: 0, description: 'the version of the transaction decided on' }),
  accountId: Type.Optional(UuidSchema),
  classIds: Type.Optional(Type.Array(UuidSchema, { maxItems: 20 })),
  memo: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  /**
   * With `account`: the line's tax code (an addition of books' own platform). The line is
   * VAT-inclusive: it posts its net on the account and its VAT, at the code's rate of its day
   * (or `vatAmount` where the receipt says otherwise), on the entity's VAT account.
   */
  taxCode: Type.Optional(TaxCodeNameSchema),
  vatAmount: Type.Optional(Type.Number({ minimum: 0 })),
  splits: Type.Optional(
    Type.Array(DecisionSplitSchema, { minItems: 2, maxItems: MAX_SPLIT_PARTS }),
  ),
  /** A transfer's other side. */
  otherTransactionId: Type.Optional(UuidSchema),
  entryId: Type.Optional(UuidSchema),
  decidedBy: Type.Optional(Type.Union([Type.Literal('person'), Type.Literal('suggestion')])),
});
export type DecisionBody = Static<typeof DecisionBodySchema>;

export const DecisionResponseSchema = Type.Object({
  transaction: BankTransactionSchema,
  /** The other side of a transfer, or a transfer's former other side set back to wait. */
  related: Type.Array(BankTransactionSchema),
});
export type DecisionResponse = Static<typeof DecisionResponseSchema>;

export const BulkDecisionBodySchema = Type.Object({
  decisions: Type.Array(
    Type.Composite([Type.Object({ transactionId: UuidSchema }), DecisionBodySchema]),
    { minItems: 1, maxItems: MAX_BULK_ITEMS },
  ),
});
export type BulkDecisionBody = Static<typeof BulkDecisionBodySchema>;

/** Each decision of a bulk request on its own: decided (200), or refused with its status. */
export const DecisionOutcomeSchema = Type.Object({
  transactionId: UuidSchema,
  status: Type.Integer(),
  transaction: Type.Optional(BankTransactionSchema),
  related: Type.Optional(Type.Array(BankTransactionSchema)),
  message: Type.Optional(Type.String()),
});
export type DecisionOutcome = Static<typeof DecisionOutcomeSchema>;

export const BulkDecisionResponseSchema = Type.Object({
  data: Type.Array(DecisionOutcomeSchema),
});

/** The firm's morning view: per entity, what waits. */
export const ForReviewSummarySchema = Type.Object(
  {
    workspaceId: UuidSchema,
    entityId: UuidSchema,
    entityName: Type.String(),
    waiting: Type.Integer(),
    oldest: Type.Union([CalendarDaySchema, Type.Null()]),
    moneyIn: Type.Number(),
    moneyOut: Type.Number(),
    /** How many have a suggestion at or above `minConfidence`. */
    confident: Type.Integer(),
  },
  { title: 'ForReviewSummary' },
);
export type ForReviewSummary = Static<typeof ForReviewSummarySchema>;

export const ForReviewSummaryQuerySchema = Type.Object({
  entityId: Type.Optional(UuidSchema),
  minConfidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.95 })),
});
export type ForReviewSummaryQuery = Static<typeof ForReviewSummaryQuerySchema>;

export const ForReviewSummaryResponseSchema = Type.Object({
  data: Type.Array(ForReviewSummarySchema),
});

export const ApplyRulesBodySchema = Type.Object({
  entityId: Type.Optional(UuidSchema),
  ruleIds: Type.Optional(Type.Array(UuidSchema, { minItems: 1, maxItems: 1000 })),
  dryRun: Type.Optional(Type.Boolean({ default: false })),
});
export type ApplyRulesBody = Static<typeof ApplyRulesBodySchema>;

export const ApplyRulesResponseSchema = Type.Object({
  rules: Type.Array(
    Type.Object({
      ruleId: UuidSchema,
      categorized: Type.Integer(),
      transactionIds: Type.Array(UuidSchema),
    }),
  ),
  /** Transactions the rules took (or would take, on a dry run). */
  categorized: Type.Integer(),
  /** Transactions that waited before. */
  waiting: Type.Integer(),
  dryRun: Type.Boolean(),
});
export type ApplyRulesResponse = Static<typeof ApplyRulesResponseSchema>;
