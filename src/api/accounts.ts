import { Type, type Static } from '@sinclair/typebox';
import { MAX_BULK_ITEMS, TimestampSchema, UuidSchema } from './common.js';

/** Account types, in the order of the type table of platform-api.md (chart display order). */
export const ACCOUNT_TYPES = [
  'Cash',
  'Accounts Receivable',
  'Inventory',
  'Other Current Assets',
  'Investments',
  'Fixed Assets',
  'Intangible Assets',
  'Other Assets',
  'Prepaid Expenses',
  'Accounts Payable',
  'Credit Cards',
  'Payroll Liabilities',
  'Short-Term Loans',
  'Other Current Liabilities',
  'Long-Term Loans',
  'Other Liabilities',
  'Equity',
  'Income',
  'Other Income',
  'COGS',
  'Operating Expenses',
  'Other Expenses',
  'Tax Expenses',
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const ACCOUNT_CLASSES = ['Assets', 'Liabilities', 'Equity', 'Income', 'Expenses'] as const;
export type AccountClass = (typeof ACCOUNT_CLASSES)[number];

/** Income and expenses: profit and loss, which a fiscal year's end closes into equity. */
export const isProfitAndLoss = (accountClass: AccountClass) =>
  accountClass === 'Income' || accountClass === 'Expenses';

/** Each type's class (platform-api.md, the type table): an account's class follows its type. */
export const CLASS_OF_TYPE: Record<AccountType, AccountClass> = {
  Cash: 'Assets',
  'Accounts Receivable': 'Assets',
  Inventory: 'Assets',
  'Other Current Assets': 'Assets',
  Investments: 'Assets',
  'Fixed Assets': 'Assets',
  'Intangible Assets': 'Assets',
  'Other Assets': 'Assets',
  'Prepaid Expenses': 'Assets',
  'Accounts Payable': 'Liabilities',
  'Credit Cards': 'Liabilities',
  'Payroll Liabilities': 'Liabilities',
  'Short-Term Loans': 'Liabilities',
  'Other Current Liabilities': 'Liabilities',
  'Long-Term Loans': 'Liabilities',
  'Other Liabilities': 'Liabilities',
  Equity: 'Equity',
  Income: 'Income',
  'Other Income': 'Income',
  COGS: 'Expenses',
  'Operating Expenses': 'Expenses',
  'Other Expenses': 'Expenses',
  'Tax Expenses': 'Expenses',
};

export const AccountTypeSchema = Type.Union(ACCOUNT_TYPES.map((t) => Type.Literal(t)));

export const AccountSchema = Type.Object(
  {
    id: UuidSchema,
    name: Type.String(),
    code: Type.String(),
    type: AccountTypeSchema,
    class: Type.Union(ACCOUNT_CLASSES.map((c) => Type.Literal(c))),
    groupId: Type.Union([UuidSchema, Type.Null()]),
    financialAccountId: Type.Union([UuidSchema, Type.Null()]),
    isDisabled: Type.Boolean(),
    createdAt: TimestampSchema,
  },
  { title: 'Account' },
);
export type Account = Static<typeof AccountSchema>;

export const CreateAccountBodySchema = Type.Object({
  name: Type.String(),
  type: AccountTypeSchema,
  code: Type.Optional(Type.String({ description: 'honored only on a custom chart of accounts' })),
  groupId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type CreateAccountBody = Static<typeof CreateAccountBodySchema>;

export const BulkCreateAccountsBodySchema = Type.Object({
  accounts: Type.Array(CreateAccountBodySchema, { minItems: 1, maxItems: MAX_BULK_ITEMS }),
});
export type BulkCreateAccountsBody = Static<typeof BulkCreateAccountsBodySchema>;

export const UpdateAccountBodySchema = Type.Object({
  name: Type.Optional(Type.String()),
  groupId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type UpdateAccountBody = Static<typeof UpdateAccountBodySchema>;

export const MergeAccountsBodySchema = Type.Object({
  sourceAccountId: UuidSchema,
  targetAccountId: UuidSchema,
});
export type MergeAccountsBody = Static<typeof MergeAccountsBodySchema>;

export const MERGE_BLOCKER_CODES = [
  'source_is_financial',
  'different_class',
  'locked_period',
  'locked_period_must_be_unlocked',
  'both_have_opening_balance',
] as const;
export type MergeBlockerCode = (typeof MERGE_BLOCKER_CODES)[number];

export const AccountResponseSchema = Type.Object({ account: AccountSchema });

export const AccountGroupSchema = Type.Object(
  {
    id: UuidSchema,
    name: Type.String(),
    parentGroupId: Type.Union([UuidSchema, Type.Null()]),
    type: AccountTypeSchema,
    createdAt: TimestampSchema,
  },
  { title: 'AccountGroup' },
);
export type AccountGroup = Static<typeof AccountGroupSchema>;

export const CreateAccountGroupBodySchema = Type.Object({
  name: Type.String(),
  type: AccountTypeSchema,
  parentGroupId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type CreateAccountGroupBody = Static<typeof CreateAccountGroupBodySchema>;

export const UpdateAccountGroupBodySchema = Type.Object({
  name: Type.Optional(Type.String()),
  parentGroupId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type UpdateAccountGroupBody = Static<typeof UpdateAccountGroupBodySchema>;

export const AccountGroupResponseSchema = Type.Object({ group: AccountGroupSchema });

/** Groups nest at most this deep; a top-level group is at depth 1. */
export const MAX_GROUP_DEPTH = 5;
