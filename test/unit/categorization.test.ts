import { describe, expect, it } from 'vitest';
import { asCents } from '../../src/core/money.js';
import type { RuleAction, RuleCondition, TransactionRule } from '../../src/api/index.js';
import {
  categorize,
  conditionMatches,
  ruleMatches,
} from '../../src/platform/domain/categorization.js';

const FA = '11111111-1111-4111-8111-111111111111';
const OTHER_FA = '22222222-2222-4222-8222-222222222222';
const uber = {
  financialAccountId: FA,
  amountCents: asCents(-2450),
  description: 'UBER *TRIP 8XJ2',
};
const payroll = {
  financialAccountId: FA,
  amountCents: asCents(150000),
  description: 'ACME PAYROLL',
};

const when = (
  conditionType: RuleCondition['conditionType'],
  ...value: string[]
): RuleCondition => ({ conditionType, value });
let serial = 0;
const rule = (
  conditions: RuleCondition[],
  actions: RuleAction[] = [{ actionType: 'account_id', value: 'travel' }],
  isDisabled = false,
): TransactionRule => ({
  id: `rule-${++serial}`,
  conditions,
  actions,
  note: null,
  isDisabled,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('conditions', () => {
  it.each([
    [when('description_is', 'uber *trip 8xj2'), true],
    [when('description_is', 'UBER'), false],
    [when('description_contains', 'trip'), true],
    [when('description_contains', 'Lyft'), false],
    [when('description_starts_with', 'Uber'), true],
    [when('description_starts_with', 'TRIP'), false],
    [when('amount_is', '24.50'), true],
    [when('amount_is', '24.5'), true],
    [when('amount_is', '-24.50'.replace('-', '')), true],
    [when('amount_greater_than', '24.49'), true],
    [when('amount_greater_than', '24.50'), false],
    [when('amount_less_than', '24.51'), true],
    [when('amount_less_than', '24.50'), false],
    [when('direction_is', 'outflow'), true],
    [when('direction_is', 'inflow'), false],
    [when('financial_account_is', FA), true],
    [when('financial_account_is', OTHER_FA), false],
  ])('%j on an outflow of 24.50 "UBER *TRIP 8XJ2" → %s', (condition, expected) => {
    expect(conditionMatches(condition, uber)).toBe(expected);
  });

  it('compares amounts by absolute value, in both directions', () => {
    expect(conditionMatches(when('amount_greater_than', '1000'), payroll)).toBe(true);
    expect(conditionMatches(when('direction_is', 'inflow'), payroll)).toBe(true);
  });

  it('ORs the values of one condition, and trims and ignores case', () => {
    expect(conditionMatches(when('description_contains', 'lyft', ' Uber '), uber)).toBe(true);
    expect(conditionMatches(when('direction_is', 'inflow', 'outflow'), payroll)).toBe(true);
  });

  it('ANDs the conditions of a rule', () => {
    expect(
      ruleMatches(
        rule([when('description_contains', 'uber'), when('direction_is', 'outflow')]),
        uber,
      ),
    ).toBe(true);
    expect(
      ruleMatches(
        rule([when('description_contains', 'uber'), when('direction_is', 'inflow')]),
        uber,
      ),
    ).toBe(false);
  });
});

describe('categorize', () => {
  const isEntityAccount = (id: string) => id !== 'elsewhere';

  it('takes the first enabled matching rule in order, with its classes and its tax code', () => {
    const rules = [
      rule([when('description_contains', 'lyft')], [{ actionType: 'account_id', value: 'no' }]),
      rule(
        [when('description_contains', 'uber')],
        [
          { actionType: 'account_id', value: 'travel' },
          { actionType: 'class_id', value: 'west' },
          { actionType: 'tax_code', value: 'SP' },
        ],
      ),
      rule([when('direction_is', 'outflow')], [{ actionType: 'account_id', value: 'later' }]),
    ];
    expect(categorize(rules, uber, isEntityAccount)).toEqual({
      ruleId: rules[1]!.id,
      accountId: 'travel',
      classIds: ['west'],
      taxCode: 'SP',
    });
  });

  it('skips disabled rules, and rules whose account is another entity’s', () => {
    const rules = [
      rule(
        [when('description_contains', 'uber')],
        [{ actionType: 'account_id', value: 'first' }],
        true,
      ),
      rule(
        [when('description_contains', 'uber')],
        [{ actionType: 'account_id', value: 'elsewhere' }],
      ),
      rule([when('description_contains', 'uber')], [{ actionType: 'account_id', value: 'third' }]),
    ];
    expect(categorize(rules, uber, isEntityAccount).accountId).toBe('third');
  });

  it('leaves a transaction uncategorized when nothing matches', () => {
    expect(categorize([rule([when('description_is', 'rent')])], uber, isEntityAccount)).toEqual({
      ruleId: null,
      accountId: null,
      classIds: [],
      taxCode: null,
    });
  });
});
