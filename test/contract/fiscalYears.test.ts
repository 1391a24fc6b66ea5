import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '../helpers/ledger.js';
import { startServer, type TestServer } from '../helpers/server.js';

/*
 * An entity's fiscal year, and the trial balance as the spec says it (local-platform.md,
 * Reports): generated books over three fiscal years, for a fiscal year from January, April and
 * July, every grouping; each figure computed here from the postings the test made, on whichever
 * backend the run is on.
 */

interface Posting {
  date: string;
  account: string;
  cents: number;
}

const ACCOUNTS: Record<string, { type: string; results: boolean }> = {
  Checking: { type: 'Cash', results: false },
  Receivables: { type: 'Accounts Receivable', results: false },
  Loan: { type: 'Long-Term Loans', results: false },
  Capital: { type: 'Equity', results: false },
  Sales: { type: 'Income', results: true },
  Interest: { type: 'Other Income', results: true },
  Rent: { type: 'Operating Expenses', results: true },
  Wages: { type: 'Operating Expenses', results: true },
};

/** Three years and a half of books: monthly sales, rent, wages, some of it on account. */
function generatedBooks(): { date: string; debit: string; credit: string; cents: number }[] {
  const entries: { date: string; debit: string; credit: string; cents: number }[] = [
    { date: '2023-01-02', debit: 'Checking', credit: 'Capital', cents: 2_000_000 },
    { date: '2023-01-03', debit: 'Checking', credit: 'Loan', cents: 5_000_000 },
  ];
  for (let k = 0; k < 42; k += 1) {
    const year = 2023 + Math.floor(k / 12);
    const month = String((k % 12) + 1).padStart(2, '0');
    entries.push(
      {
        date: `${year}-${month}-05`,
        debit: 'Receivables',
        credit: 'Sales',
        cents: 300_000 + 1_379 * k,
      },
      {
        date: `${year}-${month}-20`,
        debit: 'Checking',
        credit: 'Receivables',
        cents: 280_000 + 977 * k,
      },
      {
        date: `${year}-${month}-01`,
        debit: 'Rent',
        credit: 'Checking',
        cents: 90_000 + (k % 5) * 1_000,
      },
      { date: `${year}-${month}-28`, debit: 'Wages', credit: 'Checking', cents: 120_000 + 313 * k },
    );
    if (k % 3 === 0)
      entries.push({
        date: `${year}-${month}-${month === '02' ? '28' : '30'}`,
        debit: 'Checking',
        credit: 'Interest',
        cents: 1_234 + k,
      });
  }
  return entries;
}

const postings: Posting[] = generatedBooks().flatMap((e) => [
  { date: e.date, account: e.debit, cents: e.cents },
  { date: e.date, account: e.credit, cents: -e.cents },
]);

/** The first day of the fiscal year starting on `start` (MM-DD) that holds `day`. */
const yearStart = (day: string, start: string) =>
  day.slice(5) >= start ? `${day.slice(0, 4)}-${start}` : `${Number(day.slice(0, 4)) - 1}-${start}`;
const sum = (keep: (p: Posting) => boolean) =>
  postings.filter(keep).reduce((n, p) => n + p.cents, 0);

/** The trial balance at `end`, computed from the postings: debit less credit, by account. */
function expectedTrialBalance(end: string, start: string): Map<string, number> {
  const from = yearStart(end, start);
  const rows = new Map<string, number>();
  for (const [name, { results }] of Object.entries(ACCOUNTS)) {
    const net = sum((p) => p.account === name && p.date <= end && (!results || p.date >= from));
    if (net !== 0) rows.set(name, net);
  }
  const retained = sum((p) => ACCOUNTS[p.account]!.results && p.date < from);
  if (retained !== 0) rows.set('Retained Earnings', retained);
  return rows;
}

const cents = (amount: number) => Math.round(amount * 100);

describe.each(['01-01', '04-01', '07-01'])('a fiscal year from %s', (fiscalYearStart) => {
  let server: TestServer;
  let base: string;
  const get = async (path: string) => {
    const response = await server.request('GET', `${base}${path}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    server = await startServer();
    const entity = await createEntity(server);
    base = `/platform/v1/entities/${entity.entityId}`;
    const set = await server.request('PATCH', `/sandbox/v1/entities/${entity.entityId}`, {
      body: { fiscalYearStart },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.entity.fiscalYearStart).toBe(fiscalYearStart);
    const ids: Record<string, string> = {};
    for (const [name, { type }] of Object.entries(ACCOUNTS)) {
      const made = await server.request('POST', `${base}/chart-of-accounts`, {
        body: { name, type },
      });
      expect(made.status, made.text).toBe(201);
      ids[name] = made.body.account.id;
    }
    const entries = generatedBooks().map((e) => ({
      date: e.date,
      lines: [
        { accountId: ids[e.debit], debitAmount: e.cents / 100, creditAmount: null },
        { accountId: ids[e.credit], debitAmount: null, creditAmount: e.cents / 100 },
      ],
    }));
    for (let i = 0; i < entries.length; i += 100) {
      const bulk = await server.request('POST', `${base}/journal-entries/bulk`, {
        body: { journalEntries: entries.slice(i, i + 100) },
      });
      expect(bulk.status, bulk.text).toBe(201);
    }
  });
  afterAll(() => server.close());

  it.each([
    ['total', '2023-01-01', '2026-06-30'],
    ['year', '2023-01-01', '2026-06-30'],
    ['quarter', '2023-10-01', '2026-06-30'],
    ['month', '2024-11-01', '2026-06-30'],
    ['week', '2025-03-03', '2025-07-13'],
  ])(
    'by %s from %s to %s: every column as computed, balanced, Retained Earnings the balance sheet’s',
    async (groupBy, startDate, endDate) => {
      const query = `?startDate=${startDate}&endDate=${endDate}&groupBy=${groupBy}`;
      const { report: tb } = await get(`/reports/trial-balance${query}`);
      const { report: bs } = await get(`/reports/balance-sheet${query}`);
      expect(tb.periods.length).toBeGreaterThan(groupBy === 'total' ? 0 : 2);
      tb.periods.forEach((period: { endDate: string }, column: number) => {
        const expected = expectedTrialBalance(period.endDate, fiscalYearStart);
        const read = new Map<string, number>();
        for (const row of tb.rows) {
          const side = row.amountsByPeriod[column];
          const net = cents(side.debit) - cents(side.credit);
          if (net !== 0) read.set(row.accountName, net);
        }
        expect(read, `${period.endDate}`).toEqual(expected);
        const totals = tb.totalsByPeriod[column];
        expect(cents(totals.debit)).toBe(cents(totals.credit));
        const retained = bs.sections
          .find((s: { label: string }) => s.label === 'Equity')
          .lines.find((l: { kind: string }) => l.kind === 'retained_earnings');
        // The balance sheet shows it credit-positive, the trial balance debit less credit.
        expect(cents(retained.amountsByPeriod[column]), `${period.endDate}`).toBe(
          0 - (expected.get('Retained Earnings') ?? 0),
        );
      });
      // The Retained Earnings row is the last, without a code.
      const last = tb.rows.at(-1);
      expect([last.accountCode, last.accountName]).toEqual(['', 'Retained Earnings']);
    },
  );

  it('refuses a fiscal year start no year has every time', async () => {
    const entity = base.split('/').at(-1)!;
    for (const bad of ['02-29', '04-31', '13-01', '4-1']) {
      const response = await server.request('PATCH', `/sandbox/v1/entities/${entity}`, {
        body: { fiscalYearStart: bad },
      });
      expect(response.status, bad).toBe(400);
    }
    const made = await server.request('GET', `/sandbox/v1/entities/${entity}`);
    expect(made.body.entity.fiscalYearStart).toBe(fiscalYearStart);
  });
});
