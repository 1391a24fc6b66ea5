import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidSchema } from './common.js';

export const CONDITION_TYPES = [
  'description_is',
  'description_contains',
  'description_starts_with',
  'amount_is',
  'amount_greater_than',
  'amount_less_than',
  'direction_is',
  'financial_account_is',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/**
 * `tax_code` (a local-platform addition): the code, by its name, the rule's account posts with,
 * as net and VAT, on an entity that keeps it (an entity that does not posts the gross).
 */
export const ACTION_TYPES = ['account_id', 'class_id', 'tax_code'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const DIRECTIONS = ['inflow', 'outflow'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const RuleConditionSchema = Type.Object({
  conditionType: Type.Union(CONDITION_TYPES.map((t) => Type.Literal(t))),
  value: Type.Array(Type.String(), { minItems: 1 }),
});
export type RuleCondition = Static<typeof RuleConditionSchema>;

export const RuleActionSchema = Type.Object({
  actionType: Type.Union(ACTION_TYPES.map((t) => Type.Literal(t))),
  value: Type.String(),
});
export type RuleAction = Static<typeof RuleActionSchema>;

export const RULE_NOTE_MAX_LENGTH = 1000;

export const TransactionRuleSchema = Type.Object(
  {
    id: UuidSchema,
    conditions: Type.Array(RuleConditionSchema),
    actions: Type.Array(RuleActionSchema),
    note: Type.Union([Type.String(), Type.Null()]),
    isDisabled: Type.Boolean(),
    updatedAt: TimestampSchema,
  },
  { title: 'TransactionRule' },
);
export type TransactionRule = Static<typeof TransactionRuleSchema>;

const Conditions = Type.Array(RuleConditionSchema, { minItems: 1 });
const Actions = Type.Array(RuleActionSchema, { minItems: 1 });
const Note = Type.Union([Type.String({ maxLength: RULE_NOTE_MAX_LENGTH }), Type.Null()]);

export const CreateTransactionRuleBodySchema = Type.Object({
  conditions: Conditions,
  actions: Actions,
  note: Type.Optional(Note),
});
export type CreateTransactionRuleBody = Static<typeof CreateTransactionRuleBodySchema>;

export const UpdateTransactionRuleBodySchema = Type.Object({
  conditions: Type.Optional(Conditions),
  actions: Type.Optional(Actions),
  isDisabled: Type.Optional(Type.Boolean()),
  note: Type.Optional(Note),
});
export type UpdateTransactionRuleBody = Static<typeof UpdateTransactionRuleBodySchema>;

export const TransactionRuleResponseSchema = Type.Object({ rule: TransactionRuleSchema });
