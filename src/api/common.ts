import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A calendar day, `YYYY-MM-DD` (a real date: 2025-02-30 is refused). */
export const CalendarDaySchema = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const UuidSchema = Type.String({ format: 'uuid' });
/** ISO 8601 UTC with milliseconds. */
export const TimestampSchema = Type.String({ format: 'date-time' });

export const ErrorBodySchema = Type.Object(
  {
    message: Type.String(),
    traceId: Type.Union([Type.String(), Type.Null()]),
    blockers: Type.Optional(
      Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
    ),
  },
  { title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

export const MAX_PAGE_SIZE = 100;

/**
 * A list's `offset`: at most 2^53 − 1, the largest integer a JSON number holds exactly (a larger
 * one is a 400, not a number SQLite cannot take).
 */
export const OffsetSchema = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  default: 0,
});

export const ListQuerySchema = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: MAX_PAGE_SIZE }),
  ),
  offset: Type.Optional(OffsetSchema),
});
export type ListQuery = Static<typeof ListQuerySchema>;

export const PaginationSchema = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  total: Type.Integer(),
});
export type Pagination = Static<typeof PaginationSchema>;

export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: PaginationSchema });
}
export interface List<T> {
  data: T[];
  pagination: Pagination;
}

/** Bulk endpoints take at most this many items. */
export const MAX_BULK_ITEMS = 100;

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
