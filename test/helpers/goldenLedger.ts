import { expect } from 'vitest';
import type { TestServer } from './server.js';

/**
 * A small hand-checked ledger: every account type, an opening balance, a sale in the prior
 * fiscal year (for Retained Earnings), one entry on the accrual ledger only, and a lock.
 * Figures worked by hand are asserted in test/contract/reports.test.ts.
 */
export async function buildGoldenLedger(server: TestServer) {
  const workspace = (
    await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Golden Books', timezone: 'America/New_York' },
    })
  ).body.workspace;
  const entity = (
    await server.request('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      body: { name: 'Golden Bakery LLC', bookkeepingStartDate: '2026-01-01' },
    })
  ).body.entity;
  await server.request('POST', `/sandbox/v1/entities/${entity.id}/ledgers/accrual/open`);
  const base = `/platform/v1/entities/${entity.id}`;
  const chart: [string, string][] = [
    ['Checking', 'Cash'],
    ['Accounts Receivable', 'Accounts Receivable'],
    ['Inventory', 'Inventory'],
    ['Deposits Paid', 'Other Current Assets'],
    ['Brokerage', 'Investments'],
    ['Equipment', 'Fixed Assets'],
    ['Trademark', 'Intangible Assets'],
    ['Security Deposit', 'Other Assets'],
    ['Prepaid Insurance', 'Prepaid Expenses'],
    ['Accounts Payable', 'Accounts Payable'],
    ['Amex', 'Credit Cards'],
    ['Payroll Liabilities', 'Payroll Liabilities'],
    ['Line of Credit', 'Short-Term Loans'],
    ['Customer Deposits', 'Other Current Liabilities'],
    ['Equipment Loan', 'Long-Term Loans'],
    ['Deferred Rent', 'Other Liabilities'],
    ["Owner's Equity", 'Equity'],
    ['Sales', 'Income'],
    ['Interest Income', 'Other Income'],
    ['Cost of Goods Sold', 'COGS'],
    ['Rent', 'Operating Expenses'],
    ['Wages', 'Operating Expenses'],
    ['Utilities', 'Operating Expenses'],
    ['Bank Fees', 'Other Expenses'],
    ['Income Tax', 'Tax Expenses'],
  ];
  const created = await server.request('POST', `${base}/chart-of-accounts/bulk`, {
    body: { accounts: chart.map(([name, type]) => ({ name, type })) },
  });
  expect(created.status).toBe(201);
  const id: Record<string, string> = Object.fromEntries(
    created.body.data.map((a: { name: string; id: string }) => [a.name, a.id]),
  );

  const opening = await server.request(
    'POST',
    `/sandbox/v1/entities/${entity.id}/opening-balances`,
    {
      body: {
        date: '2025-12-31',
        lines: [
          { accountId: id.Checking, debitAmount: 10000 },
          { accountId: id["Owner's Equity"], creditAmount: 10000 },
        ],
      },
    },
  );
  expect(opening.status).toBe(201);

  /** [date, memo, [account, debit, credit]...] on the cash ledger. */
  const entries: [string, string, [string, number, number][]][] = [
    [
      '2025-12-15',
      'December sale',
      [
        ['Checking', 1000, 0],
        ['Sales', 0, 1000],
      ],
    ],
    [
      '2026-01-05',
      'January sales',
      [
        ['Checking', 5000, 0],
        ['Sales', 0, 5000],
      ],
    ],
    [
      '2026-01-10',
      'Flour and sugar',
      [
        ['Cost of Goods Sold', 2000, 0],
        ['Checking', 0, 2000],
      ],
    ],
    [
      '2026-01-15',
      'January rent',
      [
        ['Rent', 1500, 0],
        ['Checking', 0, 1500],
      ],
    ],
    [
      '2026-02-01',
      'Invoice 1001',
      [
        ['Accounts Receivable', 3000, 0],
        ['Sales', 0, 3000],
      ],
    ],
    [
      '2026-02-03',
      'Stock on account',
      [
        ['Inventory', 800, 0],
        ['Accounts Payable', 0, 800],
      ],
    ],
    [
      '2026-02-05',
      'Utility deposit',
      [
        ['Deposits Paid', 400, 0],
        ['Checking', 0, 400],
      ],
    ],
    [
      '2026-02-10',
      'Index fund',
      [
        ['Brokerage', 1000, 0],
        ['Checking', 0, 1000],
      ],
    ],
    [
      '2026-02-12',
      'New oven',
      [
        ['Equipment', 2500, 0],
        ['Equipment Loan', 0, 2500],
      ],
    ],
    [
      '2026-02-14',
      'Trademark filing',
      [
        ['Trademark', 300, 0],
        ['Checking', 0, 300],
      ],
    ],
    [
      '2026-02-16',
      'Lease deposit',
      [
        ['Security Deposit', 200, 0],
        ['Checking', 0, 200],
      ],
    ],
    [
      '2026-02-18',
      'Insurance for the year',
      [
        ['Prepaid Insurance', 600, 0],
        ['Amex', 0, 600],
      ],
    ],
    [
      '2026-02-28',
      'February payroll',
      [
        ['Wages', 1200, 0],
        ['Payroll Liabilities', 0, 200],
        ['Checking', 0, 1000],
      ],
    ],
    [
      '2026-03-01',
      'Draw on the line',
      [
        ['Checking', 700, 0],
        ['Line of Credit', 0, 700],
      ],
    ],
    [
      '2026-03-03',
      'Cake deposit',
      [
        ['Checking', 150, 0],
        ['Customer Deposits', 0, 150],
      ],
    ],
    [
      '2026-03-05',
      'Rent holiday',
      [
        ['Checking', 250, 0],
        ['Deferred Rent', 0, 250],
      ],
    ],
    [
      '2026-03-10',
      'Interest',
      [
        ['Checking', 50, 0],
        ['Interest Income', 0, 50],
      ],
    ],
    [
      '2026-03-12',
      'Wire fee',
      [
        ['Bank Fees', 25, 0],
        ['Checking', 0, 25],
      ],
    ],
    [
      '2026-03-15',
      'Estimated tax',
      [
        ['Income Tax', 100, 0],
        ['Checking', 0, 100],
      ],
    ],
    [
      '2026-03-20',
      'Invoice 1001 paid',
      [
        ['Checking', 1000, 0],
        ['Accounts Receivable', 0, 1000],
      ],
    ],
    [
      '2026-03-22',
      'Supplier paid',
      [
        ['Accounts Payable', 800, 0],
        ['Checking', 0, 800],
      ],
    ],
    [
      '2026-03-25',
      'Amex paid',
      [
        ['Amex', 600, 0],
        ['Checking', 0, 600],
      ],
    ],
  ];
  const body = {
    journalEntries: entries.map(([date, memo, lines]) => ({
      date,
      memo,
      lines: lines.map(([account, debit, credit]) => ({
        accountId: id[account],
        debitAmount: debit || null,
        creditAmount: credit || null,
        description: `${memo} (${account})`,
      })),
    })),
  };
  const posted = await server.request('POST', `${base}/journal-entries/bulk`, { body });
  expect(posted.status, posted.text).toBe(201);
  const accrual = await server.request('POST', `${base}/journal-entries`, {
    body: {
      date: '2026-03-31',
      ledgerBasis: 'accrual',
      memo: 'March electricity, billed in April',
      lines: [
        { accountId: id.Utilities, debitAmount: 90 },
        { accountId: id['Accounts Payable'], creditAmount: 90 },
      ],
    },
  });
  expect(accrual.status).toBe(201);
  await server.request('PATCH', `/sandbox/v1/entities/${entity.id}`, {
    body: { lockDate: '2026-01-31' },
  });
  return { entityId: entity.id, base, accountIds: id };
}
