import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidSchema } from './common.js';

export const AccountingMigrationSchema = Type.Object(
  {
    id: UuidSchema,
    enrichmentRulesSeededAt: Type.Union([TimestampSchema, Type.Null()]),
    createdAt: TimestampSchema,
  },
  { title: 'AccountingMigration' },
);
export type AccountingMigration = Static<typeof AccountingMigrationSchema>;

export const AccountingMigrationResponseSchema = Type.Object({
  accountingMigration: AccountingMigrationSchema,
});
