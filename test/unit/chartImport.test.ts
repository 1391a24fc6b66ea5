import { describe, expect, it } from 'vitest';
import type { Account, AccountGroup } from '../../src/api/index.js';
import { planChartImport, type ChartRow } from '../../src/migrate/import/chartImport.js';

const account = (code: string, name: string, type: Account['type']): Account =>
  ({
    id: `id-${code}`,
    code,
    name,
    type,
    class: 'Assets',
    groupId: null,
    financialAccountId: null,
    isDisabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  }) as Account;
const group = (id: string, name: string, type: AccountGroup['type']) =>
  ({ id, name, type, parentGroupId: null }) as unknown as AccountGroup;

const live = {
  accounts: [account('1000', 'Checking', 'Cash'), account('6000', 'Rent', 'Operating Expenses')],
  groups: [
    group('00000000-0000-4000-8000-000000000001', 'Premises', 'Operating Expenses'),
    group('00000000-0000-4000-8000-000000000002', 'Banks', 'Cash'),
  ],
  codesKept: true,
};
const rows = (...given: Omit<ChartRow, 'line'>[]): ChartRow[] =>
  given.map((row, i) => ({ line: i + 2, ...row }));

describe('planChartImport: the whole chart file checked against the live chart', () => {
  it('creates what is new, with codes kept on a custom chart and groups by name or id', () => {
    const plan = planChartImport(
      rows(
        { name: ' Utilities ', type: 'operating expenses', code: '6100', group: 'premises' },
        { name: 'Savings', type: 'Cash', group: '00000000-0000-4000-8000-000000000002' },
        { name: 'Deposits', type: 'assets' },
      ),
      live,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.create).toEqual([
      {
        line: 2,
        body: {
          name: 'Utilities',
          type: 'Operating Expenses',
          code: '6100',
          groupId: '00000000-0000-4000-8000-000000000001',
        },
      },
      {
        line: 3,
        body: { name: 'Savings', type: 'Cash', groupId: '00000000-0000-4000-8000-000000000002' },
      },
      // "assets" is a class: its default type.
      { line: 4, body: { name: 'Deposits', type: 'Other Current Assets' } },
    ]);
  });

  it('finds what the chart already holds as the file says: a rerun creates nothing twice', () => {
    const plan = planChartImport(
      rows(
        { name: 'rent', type: 'Operating Expenses', code: '6000' },
        { name: 'Fees', type: 'Operating Expenses' },
      ),
      live,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.existing.map((e) => [e.line, e.account.name])).toEqual([[2, 'Rent']]);
    expect(plan.create.map((c) => c.body.name)).toEqual(['Fees']);
  });

  it('lists every problem with its line', () => {
    const plan = planChartImport(
      rows(
        { name: '', type: 'Cash' },
        { name: 'Petty Cash', type: 'Cashish' },
        { name: 'Petty Cash', type: 'Cash' },
        { name: 'petty cash', type: 'Cash' },
        { name: 'Rent', type: 'Cash' },
        { name: 'Till', type: 'Cash', code: '1000' },
        { name: 'Float', type: 'Cash', code: '10a' },
        { name: 'Drawer', type: 'Cash', code: '1500' },
        { name: 'Safe', type: 'Cash', code: '1500' },
        { name: 'Vault', type: 'Cash', group: 'Premises' },
        { name: 'Box', type: 'Cash', group: 'Nowhere' },
        { name: 'X'.repeat(256), type: 'Cash' },
        { name: 'Wages' },
      ),
      live,
    );
    expect(plan.problems).toEqual([
      'line 2: no name',
      expect.stringMatching(/^line 3: type "Cashish" is not one of Cash, /),
      'line 5: "petty cash" is named again (line 4); names are unique in any case',
      'line 6: "Rent" (Cash) is in the chart as 6000 "Rent" (Operating Expenses)',
      'line 7: code 1000 is taken in the chart by "Checking"',
      'line 8: code "10a" is not a number of at most 18 digits',
      'line 10: code 1500 is given again (line 9)',
      'line 11: group "Premises" holds Operating Expenses accounts, not Cash',
      'line 12: no account group "Nowhere" (books group list shows them)',
      'line 13: the name is 256 characters; at most 255',
      'line 14: "Wages" has no type',
    ]);
  });

  it('on a standard chart the codes are the platform’s: said once, not an error', () => {
    const plan = planChartImport(
      rows(
        { name: 'Till', type: 'Cash', code: '1000' },
        { name: 'Safe', type: 'Cash', code: '1001' },
      ),
      { ...live, codesKept: false },
    );
    expect(plan.problems).toEqual([]);
    expect(plan.create.map((c) => c.body)).toEqual([
      { name: 'Till', type: 'Cash' },
      { name: 'Safe', type: 'Cash' },
    ]);
    expect(plan.notes).toEqual([
      "the workspace's chart is the standard one, so the platform allocates codes: the file's 2 codes are not kept",
    ]);
  });
});
