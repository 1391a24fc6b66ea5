import { describe, expect, it } from 'vitest';
import { nestUnderGroups } from '../../src/cli/render/accountGroups.js';
import { niceStep, paginate } from '../../src/cli/render/packPdf.js';
import type { Statement, StatementRow } from '../../src/cli/render/statements.js';

const line = (code: string, name: string, values: number[], comparisons?: number[]) =>
  ({
    label: `${code} ${name}`,
    depth: 1,
    kind: 'line',
    values,
    section: 'expenses',
    account: { code, name },
    ...(comparisons && { comparisons }),
  }) satisfies StatementRow;

const statement = (rows: StatementRow[], compared = false): Statement => ({
  title: 'Profit and Loss',
  columns: ['Jan 2026'],
  rows,
  tidy: { periods: [], rows: [] },
  ...(compared && {
    comparison: { compare: 'prior-year', labels: ['Jan 2025'], periods: [] },
  }),
});

describe('accounts under their groups (nestUnderGroups)', () => {
  const groups = [
    { id: 'g-premises', name: 'Premises', parentGroupId: null },
    { id: 'g-shop', name: 'Shop', parentGroupId: 'g-premises' },
  ];
  const accounts = [
    { code: '6000', name: 'Rent', groupId: 'g-premises' },
    { code: '6100', name: 'Supplies', groupId: 'g-shop' },
    { code: '6200', name: 'Travel', groupId: null },
    { code: '6300', name: 'Cleaning', groupId: 'g-shop' },
  ];

  it('puts each group where its first account stood, with a total of all it holds', () => {
    const heading: StatementRow = {
      label: 'Operating Expenses',
      depth: 0,
      kind: 'heading',
      values: [],
      section: 'expenses',
    };
    const total: StatementRow = {
      ...heading,
      label: 'Total Operating Expenses',
      kind: 'total',
      values: [1300.6],
    };
    const nested = nestUnderGroups(
      statement(
        [
          heading,
          line('6000', 'Rent', [1200], [1000]),
          line('6100', 'Supplies', [86.4], [0]),
          line('6200', 'Travel', [10], [5]),
          line('6300', 'Cleaning', [4.2], [1.1]),
          total,
        ],
        true,
      ),
      accounts,
      groups,
    );
    expect(
      nested.rows.map((r) => [' '.repeat(r.depth * 2) + r.label, r.values, r.comparisons]),
    ).toEqual([
      ['Operating Expenses', [], undefined],
      ['  Premises', [], undefined],
      ['    6000 Rent', [1200], [1000]],
      ['    Shop', [], undefined],
      ['      6100 Supplies', [86.4], [0]],
      ['      6300 Cleaning', [4.2], [1.1]],
      ['    Total Shop', [90.6], [1.1]],
      ['  Total Premises', [1290.6], [1001.1]],
      ['  6200 Travel', [10], [5]],
      ['Total Operating Expenses', [1300.6], undefined],
    ]);
  });

  it('leaves a statement alone when no account is in a group, and survives a cycle', () => {
    const flat = statement([line('6000', 'Rent', [1])]);
    expect(nestUnderGroups(flat, [{ code: '6000', name: 'Rent', groupId: null }], [])).toBe(flat);
    const looped = nestUnderGroups(
      flat,
      [{ code: '6000', name: 'Rent', groupId: 'a' }],
      [
        { id: 'a', name: 'A', parentGroupId: 'b' },
        { id: 'b', name: 'B', parentGroupId: 'a' },
      ],
    );
    expect(looped.rows.map((r) => r.label)).toEqual(['B', 'A', '6000 Rent', 'Total A', 'Total B']);
  });
});

describe('PDF layout', () => {
  it('never ends a page with a heading', () => {
    const rows = ['line', 'line', 'heading', 'line', 'line'].map((kind, i) => ({ kind, i }));
    expect(paginate(rows, 3).map((page) => page.map((r) => r.i))).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
    expect(paginate([], 3)).toEqual([[]]);
  });

  it('steps an axis by 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([niceStep(100), niceStep(3100.25), niceStep(12), niceStep(0)]).toEqual([
      20, 1000, 2.5, 1,
    ]);
  });
});
