import { describe, expect, it } from 'vitest';
import {
  allocateCode,
  codeRange,
  isInClosedPeriod,
  mergeBlockers,
  requireCustomCode,
} from '../../src/platform/domain/accounts.js';
import {
  depthOf,
  orderGroups,
  validatePlacement,
  type GroupNode,
} from '../../src/platform/domain/accountGroups.js';
import { validateLines, type LineReferences } from '../../src/platform/domain/journalEntries.js';

describe('account codes', () => {
  it.each([
    ['Cash', [1000, 1999]],
    ['Prepaid Expenses', [1000, 1999]],
    ['Credit Cards', [2000, 2999]],
    ['Equity', [3000, 3999]],
    ['Income', [4000, 4499]],
    ['Other Income', [4500, 4999]],
    ['COGS', [5000, 5999]],
    ['Operating Expenses', [6000, 7999]],
    ['Other Expenses', [8000, 8999]],
    ['Tax Expenses', [9000, 9999]],
  ] as const)('%s allocates from %j', (type, range) => {
    expect(codeRange(type)).toEqual(range);
  });

  it('allocates one past the highest code in range, ignoring codes elsewhere', () => {
    expect(allocateCode('Cash', new Set())).toBe('1000');
    expect(allocateCode('Cash', new Set(['1000', '1005', '2000', 'abc']))).toBe('1006');
    expect(allocateCode('Income', new Set(['4499']))).toBe('4000');
    expect(allocateCode('Income', new Set(['4000', '4499']))).toBe('4001');
  });

  it('answers a conflict when the range is full', () => {
    const full = new Set(Array.from({ length: 1000 }, (_, i) => String(9000 + i)));
    expect(() => allocateCode('Tax Expenses', full)).toThrow(
      'no free account code is left in 9000–9999',
    );
  });

  it('honors custom codes that are numeric and unused', () => {
    expect(requireCustomCode(' 1010 ', new Set(), 'code')).toBe('1010');
    expect(() => requireCustomCode('10-10', new Set(), 'code')).toThrow(
      'code must be a numeric string',
    );
    expect(() => requireCustomCode('1010', new Set(['1010']), 'code')).toThrow(
      'code 1010 is already used',
    );
  });
});

describe('mergeBlockers', () => {
  const clear = {
    sourceIsFinancial: false,
    sourceClass: 'Assets' as const,
    targetClass: 'Assets' as const,
    lockDate: null,
    sourceHasLockedPostings: false,
    targetHasLockedPostings: false,
    sourceHasOpeningBalance: true,
    targetHasOpeningBalance: false,
  };
  it('finds none when nothing blocks (one opening balance is fine)', () => {
    expect(mergeBlockers(clear)).toEqual([]);
  });
  it('lists every blocker in a stable order', () => {
    const codes = mergeBlockers({
      ...clear,
      sourceIsFinancial: true,
      targetClass: 'Income',
      lockDate: '2026-01-31',
      sourceHasLockedPostings: true,
      targetHasLockedPostings: true,
      targetHasOpeningBalance: true,
    }).map((b) => b.code);
    expect(codes).toEqual([
      'source_is_financial',
      'different_class',
      'locked_period',
      'locked_period_must_be_unlocked',
      'both_have_opening_balance',
    ]);
  });
  it('closes the lock date itself and everything before it', () => {
    expect(isInClosedPeriod('2026-01-31', '2026-01-31')).toBe(true);
    expect(isInClosedPeriod('2026-02-01', '2026-01-31')).toBe(false);
    expect(isInClosedPeriod('1999-01-01', null)).toBe(false);
  });
});

describe('account group trees', () => {
  let sequence = 0;
  const group = (
    id: string,
    name: string,
    parentGroupId: string | null,
    type: GroupNode['type'] = 'Cash',
  ): GroupNode => ({
    id,
    name,
    parentGroupId,
    type,
    sequence: ++sequence,
  });
  const chain = [
    group('g1', 'L1', null),
    group('g2', 'L2', 'g1'),
    group('g3', 'L3', 'g2'),
    group('g4', 'L4', 'g3'),
  ];

  it('measures depth from the top level (1)', () => {
    const byId = new Map(chain.map((g) => [g.id, g]));
    expect(depthOf('g1', byId)).toBe(1);
    expect(depthOf('g4', byId)).toBe(4);
  });

  it('allows a fifth level and refuses a sixth', () => {
    expect(() => validatePlacement({ id: null, type: 'Cash' }, 'g4', chain)).not.toThrow();
    const five = [...chain, group('g5', 'L5', 'g4')];
    expect(() => validatePlacement({ id: null, type: 'Cash' }, 'g5', five)).toThrow(
      'at most 5 levels deep',
    );
  });

  it('refuses cycles and other types', () => {
    expect(() => validatePlacement(chain[0]!, 'g3', chain)).toThrow(
      'cannot be moved under itself or its descendants',
    );
    expect(() => validatePlacement(chain[1]!, 'g2', chain)).toThrow('cannot be moved under itself');
    expect(() => validatePlacement({ id: null, type: 'Income' }, 'g1', chain)).toThrow(
      'must name a group of type Income, not Cash',
    );
  });

  it('orders by type-table order, then depth-first by name', () => {
    const groups = [
      group('i', 'Sales', null, 'Income'),
      group('b', 'banks', null, 'Cash'),
      group('w', 'Wells', 'b'),
      group('c', 'Chase', 'b'),
      group('a', 'Assets Misc', null, 'Cash'),
    ];
    expect(orderGroups(groups).map((g) => g.name)).toEqual([
      'Assets Misc',
      'banks',
      'Chase',
      'Wells',
      'Sales',
    ]);
  });
});

describe('validateLines', () => {
  const refs: LineReferences = {
    account: (id) =>
      ({ a: { isDisabled: false }, b: { isDisabled: false }, off: { isDisabled: true } })[id],
    classRoot: (id) => ({ west: 'region', east: 'region', bakery: 'dept' })[id],
  };

  it('converts to cents and defaults descriptions and classes', () => {
    expect(
      validateLines(
        [
          { accountId: 'a', debitAmount: 0.29 },
          { accountId: 'b', creditAmount: 0.29, debitAmount: 0, description: 'x' },
        ],
        refs,
      ),
    ).toEqual([
      { accountId: 'a', classIds: [], debitCents: 29, creditCents: 0, description: '' },
      { accountId: 'b', classIds: [], debitCents: 0, creditCents: 29, description: 'x' },
    ]);
  });

  it.each([
    [
      [
        { accountId: 'a', debitAmount: 1 },
        { accountId: 'b', creditAmount: 1.01 },
      ],
      'lines do not balance: debits 1.00, credits 1.01',
    ],
    [
      [{ accountId: 'a', debitAmount: 1, creditAmount: 1 }, { accountId: 'b' }],
      'lines[0] must have exactly one positive side',
    ],
    [
      [
        { accountId: 'a', debitAmount: 0 },
        { accountId: 'b', creditAmount: 0 },
      ],
      'lines[0] must have exactly one positive side',
    ],
    [
      [
        { accountId: 'zzz', debitAmount: 1 },
        { accountId: 'b', creditAmount: 1 },
      ],
      'lines[0].accountId must name an account of the entity',
    ],
    [
      [
        { accountId: 'off', debitAmount: 1 },
        { accountId: 'b', creditAmount: 1 },
      ],
      'lines[0].accountId names an archived account',
    ],
    [
      [
        { accountId: 'a', debitAmount: 1, classIds: ['west', 'east'] },
        { accountId: 'b', creditAmount: 1 },
      ],
      'lines[0].classIds holds more than one class of the same root',
    ],
    [
      [
        { accountId: 'a', debitAmount: 1, classIds: ['nowhere'] },
        { accountId: 'b', creditAmount: 1 },
      ],
      'lines[0].classIds[0] must name a class of the workspace',
    ],
  ])('refuses %j', (lines, message) => {
    expect(() => validateLines(lines, refs)).toThrow(message);
  });

  it('prefixes field names for bulk requests', () => {
    expect(() =>
      validateLines(
        [
          { accountId: 'a', debitAmount: 1 },
          { accountId: 'b', creditAmount: 2 },
        ],
        refs,
        'journalEntries[7].',
      ),
    ).toThrow('journalEntries[7].lines do not balance');
  });

  it('sums a thousand lines of 0.01 exactly', () => {
    const lines = [
      ...Array.from({ length: 1000 }, () => ({ accountId: 'a', debitAmount: 0.01 })),
      { accountId: 'b', creditAmount: 10 },
    ];
    expect(validateLines(lines, refs)).toHaveLength(1001);
  });
});
