import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/calendar.js';
import { periodsBetween } from '../../src/core/periods.js';
import { cashFlow } from '../../src/platform/domain/reports/cashFlow.js';
import { profitAndLoss } from '../../src/platform/domain/reports/profitAndLoss.js';
import {
  trialBalance,
  trialBalanceSplits,
} from '../../src/platform/domain/reports/trialBalance.js';
import { BASIS_CODE } from '../../src/platform/store/postings.js';
import { generateLedger } from '../helpers/generatedLedger.js';
import { cents, postGeneratedLedger } from '../helpers/postGenerated.js';
import { startServer, type TestServer } from '../helpers/server.js';

const START = '2024-02-10';
const END = '2026-05-20';

describe('report invariants over a generated ledger (3,000 entries, both bases, every groupBy)', () => {
  let server: TestServer;
  let base: string;
  let entityId: string;
  beforeAll(async () => {
    server = await startServer();
    const ledger = generateLedger({ seed: 42, count: 3000, firstDay: '2024-01-01', days: 900 });
    ({ base, entityId } = await postGeneratedLedger(server, ledger, 'America/Chicago'));
  }, 120_000);
  afterAll(() => server.close());

  const report = async (kind: string, query: Record<string, string>) => {
    const response = await server.request(
      'GET',
      `${base}/reports/${kind}?${new URLSearchParams(query)}`,
    );
    expect(response.status, response.text).toBe(200);
    return response.body.report;
  };

  for (const ledgerBasis of ['cash', 'accrual']) {
    for (const groupBy of ['week', 'month', 'quarter', 'year', 'total']) {
      describe(`${ledgerBasis}, by ${groupBy}`, () => {
        const query = { startDate: START, endDate: END, ledgerBasis, groupBy };

        it('balance sheet: Assets = Liabilities + Equity in every column, to the cent', async () => {
          const bs = await report('balance-sheet', query);
          const [assets, liabilities, equity] = bs.sections.map((s: any) =>
            s.totalsByPeriod.map(cents),
          );
          expect(assets.length).toBe(bs.periods.length);
          assets.forEach((value: number, i: number) =>
            expect(value).toBe(liabilities[i] + equity[i]),
          );
          expect(cents(bs.sections[0].total)).toBe(assets[assets.length - 1]);
        });

        it('trial balance: debits = credits in every column', async () => {
          const tb = await report('trial-balance', query);
          tb.totalsByPeriod.forEach((t: any) => expect(cents(t.debit)).toBe(cents(t.credit)));
          const sumOf = (side: 'debit' | 'credit', i: number) =>
            tb.rows.reduce(
              (total: number, row: any) => total + cents(row.amountsByPeriod[i][side]),
              0,
            );
          tb.totalsByPeriod.forEach((t: any, i: number) =>
            expect(sumOf('debit', i)).toBe(cents(t.debit)),
          );
          expect(tb.totals).toEqual(tb.totalsByPeriod[tb.totalsByPeriod.length - 1]);
        });

        it('cash flow: netCashChange = ending − beginning = operating + investing + financing', async () => {
          const cf = await report('cash-flow', query);
          cf.summaryByPeriod.forEach((s: any, i: number) => {
            expect(cents(s.netCashChange)).toBe(
              cents(s.endingCashBalance) - cents(s.beginningCashBalance),
            );
            expect(cents(s.netCashChange)).toBe(
              cents(s.operatingActivities) +
                cents(s.investingActivities) +
                cents(s.financingActivities),
            );
            if (i > 0)
              expect(cents(s.beginningCashBalance)).toBe(
                cents(cf.summaryByPeriod[i - 1].endingCashBalance),
              );
          });
          const change = cf.summaryByPeriod.reduce(
            (total: number, s: any) => total + cents(s.netCashChange),
            0,
          );
          expect(cents(cf.summary.netCashChange)).toBe(change);
        });

        it("profit and loss: net income equals the balance sheet's net income movement", async () => {
          const pl = await report('profit-and-loss', query);
          const bs = await report('balance-sheet', query);
          const before = await report('balance-sheet', {
            startDate: addDays(START, -1),
            endDate: addDays(START, -1),
            ledgerBasis,
          });
          const earnings = (sheet: any, column: number) =>
            sheet.sections[2].lines
              .filter((l: any) => l.kind !== 'account')
              .reduce((total: number, l: any) => total + cents(l.amountsByPeriod[column]), 0);
          const netIncome = pl.sections
            .find((s: any) => s.section === 'netIncome')
            .totalsByPeriod.map(cents);
          let previous = earnings(before, 0);
          netIncome.forEach((value: number, i: number) => {
            const current = earnings(bs, i);
            expect(value).toBe(current - previous);
            previous = current;
          });
          expect(cents(pl.sections[8].total)).toBe(
            netIncome.reduce((a: number, b: number) => a + b, 0),
          );
        });
      });
    }

    it(`${ledgerBasis}: general ledger opening + activity = closing, and closing = trial balance (income and expenses from the fiscal year's start, earlier years in Retained Earnings)`, async () => {
      const range = { startDate: '2025-03-01', endDate: '2025-09-30', ledgerBasis };
      const gl = await report('general-ledger', range);
      const tb = await report('trial-balance', range);
      // The fiscal year (a calendar one) of the range's end: what the trial balance starts
      // income and expenses from.
      const year = await report('general-ledger', { ...range, startDate: '2025-01-01' });
      const beforeYear = new Map<string, number>(
        year.accounts.map((a: any) => [a.accountName, cents(a.openingBalance)]),
      );
      const results = /^(Income|Other Income|COGS|Operating Expenses|Other Expenses|Tax Expenses) /;
      let retained = 0;
      const byName = new Map<string, number>(
        tb.rows.map((r: any) => [r.accountName, cents(r.debit) - cents(r.credit)]),
      );
      expect(gl.accounts.length).toBeGreaterThan(10);
      for (const account of gl.accounts) {
        const sign =
          /^(Cash|Accounts Receivable|Inventory|Other Current Assets|Investments|Fixed Assets|Intangible Assets|Other Assets|Prepaid Expenses|COGS|Operating Expenses|Other Expenses|Tax Expenses) /.test(
            account.accountName,
          )
            ? 1
            : -1;
        const activity = account.entries.reduce(
          (total: number, e: any) =>
            total + sign * (cents(e.debitAmount ?? 0) - cents(e.creditAmount ?? 0)),
          0,
        );
        expect(cents(account.openingBalance) + activity).toBe(cents(account.closingBalance));
        if (account.entries.length > 0) {
          expect(cents(account.entries[account.entries.length - 1].balance)).toBe(
            cents(account.closingBalance),
          );
        }
        const earlier = results.test(account.accountName)
          ? (beforeYear.get(account.accountName) ?? 0)
          : 0;
        retained += sign * earlier;
        expect(sign * (byName.get(account.accountName) ?? 0)).toBe(
          cents(account.closingBalance) - earlier,
        );
      }
      // Debit-positive: the earlier years' results, net income a credit.
      expect(byName.get('Retained Earnings') ?? 0).toBe(retained);
      expect(cents(tb.totals.debit)).toBe(cents(tb.totals.credit));
    });
  }

  // The trial balance, P&L and cash flow read sums over spans between period starts instead of
  // one row per account and day: every way of making the spans must give the reports the days
  // give, and read fewer rows.
  for (const ledgerBasis of ['cash', 'accrual'] as const) {
    for (const [groupBy, startDate] of [
      ['week', START], // more than 16 periods, not whole months: by day
      ['month', START], // whole months after a first part-month
      ['month', '2025-03-01'],
      ['quarter', START], // 16 or fewer periods: spans by comparison
      ['year', START],
      ['total', START],
      ['total', '2024-01-01'],
    ] as const) {
      it(`${ledgerBasis}, by ${groupBy} from ${startDate}: the same reports from spans as from days`, async () => {
        const { engine } = server.platform;
        const organizationId = server.platform.defaultOrganizationId;
        const scope = await engine.entities.scope(organizationId, entityId);
        const accounts = await engine.store.accounts.all(entityId);
        const periods = periodsBetween(startDate, END, groupBy);
        // A fiscal year from April: the trial balance splits at its starts as well.
        const spec = {
          entityId,
          startDate,
          endDate: END,
          ledgerBasis,
          groupBy,
          fiscalYearStart: '04-01',
        };
        const basis = BASIS_CODE[ledgerBasis];
        const byDay = {
          accounts,
          periods,
          days: await engine.store.reports.dailySums(scope.entitySeq, basis, END),
        };
        const bySpan = {
          ...byDay,
          days: await engine.store.reports.periodSums(
            scope.entitySeq,
            basis,
            periods.map((period) => period.startDate),
            END,
          ),
        };
        const byFiscalSpan = {
          ...byDay,
          days: await engine.store.reports.periodSums(
            scope.entitySeq,
            basis,
            trialBalanceSplits(periods, spec.fiscalYearStart),
            END,
          ),
        };
        expect(trialBalance(spec, byFiscalSpan)).toEqual(trialBalance(spec, byDay));
        expect(profitAndLoss(spec, bySpan)).toEqual(profitAndLoss(spec, byDay));
        expect(cashFlow(spec, bySpan)).toEqual(cashFlow(spec, byDay));
        if (groupBy === 'week') expect(bySpan.days.length).toBe(byDay.days.length);
        else expect(bySpan.days.length).toBeLessThan(byDay.days.length);
      });
    }
  }
});
