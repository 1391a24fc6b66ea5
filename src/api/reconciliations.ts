import { Type, type Static } from '@sinclair/typebox';
import { CalendarDaySchema, TimestampSchema, UuidSchema } from './common.js';

/*
 * A bank or card account reconciled to its bank's statements (an addition of the local
 * platform's sandbox control plane: the hosted platform keeps reconciliations in its own web
 * app). `books reconcile` records one when an account reconciles: the statements' days, the
 * bank's balances, and the postings the statements cleared. What the books then know — which
 * entries the bank cleared, where the last reconciled statement ended — keeps a bank line from
 * being suggested as the match of an entry the bank cleared long ago.
 */

/** Postings one reconciliation may name (a year of a busy account). */
export const MAX_RECONCILED_ENTRIES = 100_000;

export const CreateReconciliationBodySchema = Type.Object({
  /** The chart account reconciled (a bank or card account: an asset or a liability). */
  accountId: UuidSchema,
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  /** The bank's balances, as it states them (a card's amount owed negative). */
  openingBalance: Type.Number(),
  closingBalance: Type.Number(),
  /** The journal entries, bank transactions and opening balances whose postings the statements cleared. */
  entryIds: Type.Array(UuidSchema, { maxItems: MAX_RECONCILED_ENTRIES }),
});
export type CreateReconciliationBody = Static<typeof CreateReconciliationBodySchema>;

export const ReconciliationSchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    accountId: UuidSchema,
    startDate: CalendarDaySchema,
    endDate: CalendarDaySchema,
    openingBalance: Type.Number(),
    closingBalance: Type.Number(),
    /** How many entries the statements cleared. */
    entries: Type.Integer({ minimum: 0 }),
    createdAt: TimestampSchema,
  },
  { title: 'Reconciliation' },
);
export type Reconciliation = Static<typeof ReconciliationSchema>;

export const ReconciliationResponseSchema = Type.Object({ reconciliation: ReconciliationSchema });

export const ListReconciliationsQuerySchema = Type.Object({
  accountId: Type.Optional(UuidSchema),
});
export type ListReconciliationsQuery = Static<typeof ListReconciliationsQuerySchema>;

export const ReconciliationListSchema = Type.Object({ data: Type.Array(ReconciliationSchema) });
