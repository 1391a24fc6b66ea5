import { describe, expect, it } from 'vitest';
import type { RuleAction, RuleCondition } from '../../src/api/index.js';
import {
  validateActions,
  validateConditions,
  type RuleReferences,
} from '../../src/platform/domain/transactionRules.js';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const FINANCIAL = '22222222-2222-4222-8222-222222222222';
const REGION = '33333333-3333-4333-8333-333333333333';
const WEST = '44444444-4444-4444-8444-444444444444';
const DEPARTMENT = '55555555-5555-4555-8555-555555555555';

const references: RuleReferences = {
  classRoot: (id) => ({ [REGION]: REGION, [WEST]: REGION, [DEPARTMENT]: DEPARTMENT })[id],
  isWorkspaceAccount: (id) => id === ACCOUNT,
  isWorkspaceFinancialAccount: (id) => id === FINANCIAL,
};

describe('validateConditions', () => {
  it('accepts every condition type with good values', () => {
    const conditions: RuleCondition[] = [
      { conditionType: 'description_is', value: ['Rent'] },
      { conditionType: 'description_contains', value: ['uber', 'lyft'] },
      { conditionType: 'description_starts_with', value: ['SQ *'] },
      { conditionType: 'amount_is', value: ['0', '12.30'] },
      { conditionType: 'amount_greater_than', value: ['100'] },
      { conditionType: 'amount_less_than', value: ['0.01'] },
      { conditionType: 'direction_is', value: ['inflow', 'outflow'] },
      { conditionType: 'financial_account_is', value: [FINANCIAL] },
    ];
    expect(() => validateConditions(conditions, references)).not.toThrow();
  });

  it.each([
    [
      { conditionType: 'description_contains', value: ['ok', ''] },
      'conditions[0].value[1] must not be empty',
    ],
    [
      { conditionType: 'amount_is', value: ['1.234'] },
      'conditions[0].value[0] must have at most 2 decimals',
    ],
    [
      { conditionType: 'amount_less_than', value: ['-1'] },
      'conditions[0].value[0] must not be negative',
    ],
    [
      { conditionType: 'direction_is', value: ['INFLOW'] },
      'conditions[0].value[0] must be one of inflow, outflow',
    ],
    [
      { conditionType: 'financial_account_is', value: [ACCOUNT] },
      'conditions[0].value[0] must be the id of a financial account of the workspace',
    ],
    [
      { conditionType: 'financial_account_is', value: ['nope'] },
      'conditions[0].value[0] must be the id of a financial account of the workspace',
    ],
  ] as [RuleCondition, string][])('refuses %j', (condition, message) => {
    expect(() => validateConditions([condition], references)).toThrow(message);
  });
});

describe('validateActions', () => {
  it('accepts one account, one class per root and one tax code', () => {
    const actions: RuleAction[] = [
      { actionType: 'account_id', value: ACCOUNT },
      { actionType: 'class_id', value: WEST },
      { actionType: 'class_id', value: DEPARTMENT },
      { actionType: 'tax_code', value: 'SP' },
    ];
    expect(() => validateActions(actions, references)).not.toThrow();
  });

  it.each([
    [
      [
        { actionType: 'account_id', value: ACCOUNT },
        { actionType: 'account_id', value: ACCOUNT },
      ],
      'actions may hold at most one account_id action',
    ],
    [
      [
        { actionType: 'class_id', value: REGION },
        { actionType: 'class_id', value: WEST },
      ],
      'actions may hold at most one class per root class',
    ],
    [
      [{ actionType: 'account_id', value: FINANCIAL }],
      'actions[0].value must be the id of an account of an entity of the workspace',
    ],
    [
      [{ actionType: 'class_id', value: 'x' }],
      'actions[0].value must be the id of a class of the workspace',
    ],
    [
      [
        { actionType: 'account_id', value: ACCOUNT },
        { actionType: 'tax_code', value: 'S' },
        { actionType: 'tax_code', value: 'Z' },
      ],
      'actions may hold at most one tax_code action',
    ],
    [
      [{ actionType: 'tax_code', value: 'S' }],
      'a tax_code action goes with an account_id action: the account it taxes',
    ],
    [
      [
        { actionType: 'account_id', value: ACCOUNT },
        { actionType: 'tax_code', value: 'two words' },
      ],
      'actions[1].value must be a tax code (1 to 20 characters, no spaces)',
    ],
  ] as [RuleAction[], string][])('refuses %j', (actions, message) => {
    expect(() => validateActions(actions, references)).toThrow(message);
  });
});
