import { expect } from 'vitest';
import type { GeneratedLedger } from './generatedLedger.js';
import type { TestServer } from './server.js';

/** Posts a generated ledger to a new entity (chart, opening balance, entries in bulk). */
export async function postGeneratedLedger(
  server: TestServer,
  ledger: GeneratedLedger,
  timezone = 'UTC',
) {
  const workspace = (
    await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Generated', timezone },
    })
  ).body.workspace;
  const entity = (
    await server.request('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      body: { name: 'Generated Co' },
    })
  ).body.entity;
  await server.request('POST', `/sandbox/v1/entities/${entity.id}/ledgers/accrual/open`);
  const base = `/platform/v1/entities/${entity.id}`;
  const chart = await server.request('POST', `${base}/chart-of-accounts/bulk`, {
    body: { accounts: ledger.accounts },
  });
  expect(chart.status, chart.text).toBe(201);
  const accounts: { id: string; code: string; class: string }[] = chart.body.data;
  const line = (l: { account: number; debitCents: number; creditCents: number }) => ({
    accountId: accounts[l.account]!.id,
    debitAmount: l.debitCents ? l.debitCents / 100 : null,
    creditAmount: l.creditCents ? l.creditCents / 100 : null,
  });
  const opening = await server.request(
    'POST',
    `/sandbox/v1/entities/${entity.id}/opening-balances`,
    {
      body: { date: ledger.openingBalance.date, lines: ledger.openingBalance.lines.map(line) },
    },
  );
  expect(opening.status, opening.text).toBe(201);
  for (let start = 0; start < ledger.entries.length; start += 100) {
    const journalEntries = ledger.entries.slice(start, start + 100).map((entry) => ({
      date: entry.date,
      ledgerBasis: entry.basis,
      memo: entry.memo,
      lines: entry.lines.map(line),
    }));
    const response = await server.request('POST', `${base}/journal-entries/bulk`, {
      body: { journalEntries },
    });
    expect(response.status, response.text).toBe(201);
  }
  return { entityId: entity.id, base, accounts };
}

export const cents = (amount: number) => Math.round(amount * 100);
