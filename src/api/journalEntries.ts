import { Type, type Static } from '@sinclair/typebox';
import {
  CalendarDaySchema,
  MAX_BULK_ITEMS,
  OffsetSchema,
  TimestampSchema,
  UuidSchema,
} from './common.js';

export const LEDGER_BASES = ['cash', 'accrual'] as const;
export type LedgerBasis = (typeof LEDGER_BASES)[number];
export const LedgerBasisSchema = Type.Union(
  LEDGER_BASES.map((b) => Type.Literal(b)),
  {
    default: 'cash',
  },
);

/** Where a posting came from; manual and migration entries are journal entries. */
export const SOURCE_TYPES = ['manual', 'migration', 'transaction', 'opening_balance'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const JOURNAL_MEMO_MAX_LENGTH = 1000;
export const MIN_JOURNAL_LINES = 2;
export const MAX_JOURNAL_LINES = 500;

/** An amount: a non-negative JSON number with at most 2 decimals (checked in cents). */
const AmountSchema = Type.Union([Type.Number(), Type.Null()]);

export const JournalLineInputSchema = Type.Object({
  accountId: UuidSchema,
  classIds: Type.Optional(Type.Array(UuidSchema)),
  debitAmount: Type.Optional(AmountSchema),
  creditAmount: Type.Optional(AmountSchema),
  description: Type.Optional(Type.String()),
  /** The line's tax code (a local-platform addition: the hosted API has none). */
  taxCode: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Null()])),
});
export type JournalLineInput = Static<typeof JournalLineInputSchema>;

const Lines = Type.Array(JournalLineInputSchema, {
  minItems: MIN_JOURNAL_LINES,
  maxItems: MAX_JOURNAL_LINES,
});
const Memo = Type.Union([Type.String({ maxLength: JOURNAL_MEMO_MAX_LENGTH }), Type.Null()]);

export const CreateJournalEntryBodySchema = Type.Object({
  date: CalendarDaySchema,
  ledgerBasis: Type.Optional(LedgerBasisSchema),
  lines: Lines,
  memo: Type.Optional(Memo),
});
export type CreateJournalEntryBody = Static<typeof CreateJournalEntryBodySchema>;

export const BulkCreateJournalEntriesBodySchema = Type.Object({
  journalEntries: Type.Array(CreateJournalEntryBodySchema, {
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
  }),
});
export type BulkCreateJournalEntriesBody = Static<typeof BulkCreateJournalEntriesBodySchema>;

export const UpdateJournalEntryBodySchema = Type.Object({
  date: Type.Optional(CalendarDaySchema),
  lines: Type.Optional(Lines),
  memo: Type.Optional(Memo),
});
export type UpdateJournalEntryBody = Static<typeof UpdateJournalEntryBodySchema>;

export const JournalLineSchema = Type.Object({
  accountId: UuidSchema,
  accountCode: Type.Integer(),
  accountName: Type.String(),
  classIds: Type.Array(UuidSchema),
  debitAmount: Type.Union([Type.Number(), Type.Null()]),
  creditAmount: Type.Union([Type.Number(), Type.Null()]),
  description: Type.String(),
  memo: Type.String(),
  /** Present when the line carries a tax code (a local-platform addition). */
  taxCode: Type.Optional(Type.String()),
});
export type JournalLine = Static<typeof JournalLineSchema>;

export const JournalEntrySchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    date: TimestampSchema,
    dateOnly: CalendarDaySchema,
    ledgerBasis: LedgerBasisSchema,
    memo: Type.Union([Type.String(), Type.Null()]),
    lines: Type.Array(JournalLineSchema),
    sourceType: Type.Union(SOURCE_TYPES.map((s) => Type.Literal(s))),
  },
  { title: 'JournalEntry' },
);
export type JournalEntry = Static<typeof JournalEntrySchema>;

export const JournalEntryResponseSchema = Type.Object({ journalEntry: JournalEntrySchema });

export const LedgerBasisQuerySchema = Type.Object({
  ledgerBasis: Type.Optional(LedgerBasisSchema),
});
export type LedgerBasisQuery = Static<typeof LedgerBasisQuerySchema>;

export const ListJournalEntriesQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  offset: Type.Optional(OffsetSchema),
  startDate: Type.Optional(CalendarDaySchema),
  endDate: Type.Optional(CalendarDaySchema),
  ledgerBasis: Type.Optional(LedgerBasisSchema),
});
export type ListJournalEntriesQuery = Static<typeof ListJournalEntriesQuerySchema>;

export const OpeningBalanceLineInputSchema = Type.Object({
  accountId: UuidSchema,
  debitAmount: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  creditAmount: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});

export const CreateOpeningBalanceBodySchema = Type.Object({
  date: CalendarDaySchema,
  lines: Type.Array(OpeningBalanceLineInputSchema, { minItems: 2, maxItems: MAX_JOURNAL_LINES }),
});
export type CreateOpeningBalanceBody = Static<typeof CreateOpeningBalanceBodySchema>;

export const OpeningBalanceSchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    date: CalendarDaySchema,
    lines: Type.Array(
      Type.Object({
        accountId: UuidSchema,
        debitAmount: Type.Union([Type.Number(), Type.Null()]),
        creditAmount: Type.Union([Type.Number(), Type.Null()]),
      }),
    ),
    createdAt: TimestampSchema,
  },
  { title: 'OpeningBalance' },
);
export type OpeningBalance = Static<typeof OpeningBalanceSchema>;

export const OpeningBalanceResponseSchema = Type.Object({ openingBalance: OpeningBalanceSchema });
