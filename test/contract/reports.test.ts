import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGolden } from '../helpers/golden.js';
import { buildGoldenLedger } from '../helpers/goldenLedger.js';
import { createEntity } from '../helpers/ledger.js';
import { createOrganization, errorOf, startServer, type TestServer } from '../helpers/server.js';

const REPORTS = [
  'profit-and-loss',
  'balance-sheet',
  'cash-flow',
  'trial-balance',
  'general-ledger',
] as const;

/** Replaces uuids by stable names in order of appearance, so golden files outlive a run. */
function stableIds(value: unknown): unknown {
  const names = new Map<string, string>();
  const text = JSON.stringify(value, null, 2).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (uuid) => {
      if (!names.has(uuid)) names.set(uuid, `<id ${names.size + 1}>`);
      return names.get(uuid)!;
    },
  );
  return JSON.parse(text);
}

/** A report against its golden JSON (ids replaced by stable names). */
function expectReportGolden(name: string, actual: unknown) {
  expectGolden(`${name}.json`, `${JSON.stringify(stableIds(actual), null, 2)}\n`, 'json');
}

describe('reports of the golden ledger', () => {
  let server: TestServer;
  let base: string;
  const report = async (kind: string, query: string) => {
    const response = await server.request('GET', `${base}/reports/${kind}?${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.report;
  };

  beforeAll(async () => {
    server = await startServer();
    ({ base } = await buildGoldenLedger(server));
  });
  afterAll(() => server.close());

  for (const groupBy of ['total', 'month'] as const) {
    // The general ledger takes no groupBy: pinned once, with the totals.
    for (const kind of REPORTS.filter((k) => groupBy === 'total' || k !== 'general-ledger')) {
      it(`pins the ${kind} (cash, ${groupBy})`, async () => {
        const query = `startDate=2026-01-01&endDate=2026-03-31${kind === 'general-ledger' ? '' : `&groupBy=${groupBy}`}`;
        expectReportGolden(`${kind}.cash.${groupBy}`, await report(kind, query));
      });
    }
  }

  it('pins the accrual ledger (trial balance and profit and loss)', async () => {
    expectReportGolden(
      'trial-balance.accrual.total',
      await report('trial-balance', 'startDate=2026-01-01&endDate=2026-03-31&ledgerBasis=accrual'),
    );
    expectReportGolden(
      'profit-and-loss.accrual.total',
      await report(
        'profit-and-loss',
        'startDate=2026-01-01&endDate=2026-03-31&ledgerBasis=accrual',
      ),
    );
  });

  describe('figures worked by hand', () => {
    const section = (r: any, name: string) =>
      r.sections.find((s: any) => (s.section ?? s.label) === name);

    it('profit and loss: net income 3,225.00 = 1,500 + 1,800 − 75 by month', async () => {
      const pl = await report(
        'profit-and-loss',
        'startDate=2026-01-01&endDate=2026-03-31&groupBy=month',
      );
      expect(pl.sections.map((s: any) => s.section)).toEqual([
        'income',
        'cogs',
        'grossProfit',
        'expenses',
        'netOperatingIncome',
        'otherIncome',
        'otherExpenses',
        'netOtherIncome',
        'netIncome',
      ]);
      expect(pl.periods).toEqual([
        { startDate: '2026-01-01', endDate: '2026-01-31' },
        { startDate: '2026-02-01', endDate: '2026-02-28' },
        { startDate: '2026-03-01', endDate: '2026-03-31' },
      ]);
      const totals = Object.fromEntries(
        pl.sections.map((s: any) => [s.section, [s.total, s.totalsByPeriod]]),
      );
      expect(totals).toEqual({
        income: [8000, [5000, 3000, 0]],
        cogs: [2000, [2000, 0, 0]],
        grossProfit: [6000, [3000, 3000, 0]],
        expenses: [2700, [1500, 1200, 0]],
        netOperatingIncome: [3300, [1500, 1800, 0]],
        otherIncome: [50, [0, 0, 50]],
        otherExpenses: [125, [0, 0, 125]],
        netOtherIncome: [-75, [0, 0, -75]],
        netIncome: [3225, [1500, 1800, -75]],
      });
      expect(
        section(pl, 'expenses').lines.map((l: any) => [l.accountName, l.amount, l.kind]),
      ).toEqual([
        ['Rent', 1500, 'account'],
        ['Wages', 1200, 'account'],
      ]);
      expect(section(pl, 'grossProfit').lines).toEqual([]);
    });

    it('balance sheet: assets 18,025.00 = liabilities 3,800.00 + equity 14,225.00', async () => {
      const bs = await report('balance-sheet', 'startDate=2026-01-01&endDate=2026-03-31');
      expect(bs.sections.map((s: any) => [s.label, s.total])).toEqual([
        ['Assets', 18025],
        ['Liabilities', 3800],
        ['Equity', 14225],
      ]);
      expect(section(bs, 'Equity').lines).toEqual([
        {
          accountCode: '3000',
          accountName: "Owner's Equity",
          amount: 10000,
          amountsByPeriod: [10000],
          kind: 'account',
        },
        {
          accountCode: '',
          accountName: 'Retained Earnings',
          amount: 1000,
          amountsByPeriod: [1000],
          kind: 'retained_earnings',
        },
        {
          accountCode: '',
          accountName: 'Net Income',
          amount: 3225,
          amountsByPeriod: [3225],
          kind: 'net_income',
        },
      ]);
      expect(section(bs, 'Assets').lines[0]).toMatchObject({
        accountName: 'Checking',
        amount: 10225,
      });
      // Accounts payable and the card were paid off: no balance, no line.
      expect(section(bs, 'Liabilities').lines.map((l: any) => l.accountName)).toEqual([
        'Payroll Liabilities',
        'Line of Credit',
        'Customer Deposits',
        'Equipment Loan',
        'Deferred Rent',
      ]);
    });

    it('balance sheet by month: each column balanced, positions as of each month end', async () => {
      const bs = await report(
        'balance-sheet',
        'startDate=2026-01-01&endDate=2026-03-31&groupBy=month',
      );
      const [assets, liabilities, equity] = bs.sections.map((s: any) => s.totalsByPeriod);
      expect(assets).toEqual([12500, 18400, 18025]);
      assets.forEach((value: number, i: number) =>
        expect(Math.round((liabilities[i] + equity[i]) * 100)).toBe(Math.round(value * 100)),
      );
      expect(
        section(bs, 'Liabilities').lines.find((l: any) => l.accountName === 'Accounts Payable')
          .amountsByPeriod,
      ).toEqual([0, 800, 0]);
    });

    it('trial balance: 22,850.00 on each side; Sales from the fiscal year’s start, 2025’s sale in Retained Earnings, as the balance sheet has it', async () => {
      const tb = await report('trial-balance', 'startDate=2026-01-01&endDate=2026-03-31');
      expect(tb.totals).toEqual({ debit: 22850, credit: 22850 });
      expect(tb.rows.find((r: any) => r.accountName === 'Sales')).toMatchObject({
        debit: 0,
        credit: 8000,
      });
      expect(tb.rows.at(-1)).toEqual({
        accountCode: '',
        accountName: 'Retained Earnings',
        debit: 0,
        credit: 1000,
        amountsByPeriod: [{ debit: 0, credit: 1000 }],
      });
      const bs = await report('balance-sheet', 'startDate=2026-01-01&endDate=2026-03-31');
      const equity = bs.sections.find((s: any) => s.label === 'Equity');
      expect(equity.lines.find((l: any) => l.kind === 'retained_earnings').amount).toBe(1000);
      expect(tb.rows.find((r: any) => r.accountName === 'Checking')).toMatchObject({
        debit: 10225,
        credit: 0,
      });
    });

    it('cash flow: 11,000.00 → 10,225.00, operating −225, investing −4,000, financing 3,450', async () => {
      const cf = await report('cash-flow', 'startDate=2026-01-01&endDate=2026-03-31');
      expect(cf.summary).toEqual({
        beginningCashBalance: 11000,
        endingCashBalance: 10225,
        financingActivities: 3450,
        investingActivities: -4000,
        netCashChange: -775,
        operatingActivities: -225,
      });
      expect(cf.sections[0].lines[0]).toEqual({
        accountCode: '',
        accountName: 'Net Income',
        amount: 3225,
        amountsByPeriod: [3225],
      });
    });

    it('general ledger: opening, running and closing balances; every posting type', async () => {
      const gl = await report('general-ledger', 'startDate=2025-12-01&endDate=2026-01-31');
      const checking = gl.accounts.find((a: any) => a.accountName === 'Checking');
      expect(checking.openingBalance).toBe(0);
      expect(
        checking.entries.map((e: any) => [
          e.date,
          e.debitAmount,
          e.creditAmount,
          e.balance,
          e.sourceType,
        ]),
      ).toEqual([
        ['2025-12-15T05:00:00.000Z', 1000, null, 1000, 'manual'],
        ['2025-12-31T05:00:00.000Z', 10000, null, 11000, 'opening_balance'],
        ['2026-01-05T05:00:00.000Z', 5000, null, 16000, 'manual'],
        ['2026-01-10T05:00:00.000Z', null, 2000, 14000, 'manual'],
        ['2026-01-15T05:00:00.000Z', null, 1500, 12500, 'manual'],
      ]);
      expect(checking.closingBalance).toBe(12500);
      expect(checking.entries[2]).toMatchObject({
        description: 'January sales (Checking)',
        memo: 'January sales',
        counterpartyName: null,
      });
      const sales = gl.accounts.find((a: any) => a.accountName === 'Sales');
      expect([sales.openingBalance, sales.closingBalance, sales.accountCode]).toEqual([
        0, 6000, 4000,
      ]);
      const february = await report('general-ledger', 'startDate=2026-02-01&endDate=2026-02-28');
      expect(february.accounts.find((a: any) => a.accountName === 'Checking')).toMatchObject({
        openingBalance: 12500,
        closingBalance: 9600,
      });
      // An account with a balance but no activity in the range still shows.
      expect(february.accounts.find((a: any) => a.accountName === "Owner's Equity")).toMatchObject({
        openingBalance: 10000,
        closingBalance: 10000,
        entries: [],
      });
    });
  });
});

describe('report parameters', () => {
  let server: TestServer;
  let base: string;
  beforeAll(async () => {
    server = await startServer();
    base = (await createEntity(server)).base;
  });
  afterAll(() => server.close());

  it.each(REPORTS)('%s answers every parameter error with 400', async (kind) => {
    const url = (query: string) => `${base}/reports/${kind}?${query}`;
    const cases: [string, string | RegExp][] = [
      ['endDate=2026-01-31', 'query.startDate is required'],
      ['startDate=2026-01-01', 'query.endDate is required'],
      ['startDate=2026-02-01&endDate=2026-01-31', 'startDate must not be after endDate'],
      [
        'startDate=2026-01-32&endDate=2026-02-01',
        'query.startDate must be a valid date (YYYY-MM-DD)',
      ],
      [
        'startDate=01/01/2026&endDate=2026-02-01',
        'query.startDate must be a valid date (YYYY-MM-DD)',
      ],
      [
        'startDate=2026-01-01&endDate=2026-02-01&ledgerBasis=accrual',
        'ledgerBasis: the accrual ledger of this entity is not open',
      ],
      [
        'startDate=2026-01-01&endDate=2026-02-01&ledgerBasis=tax',
        'query.ledgerBasis must be one of cash, accrual',
      ],
    ];
    if (kind === 'general-ledger') {
      cases.push([
        'startDate=2026-01-01&endDate=2026-02-01&groupBy=month',
        'groupBy is not accepted by the general ledger',
      ]);
    } else {
      cases.push(
        [
          'startDate=2026-01-01&endDate=2026-02-01&groupBy=day',
          'query.groupBy must be one of week, month, quarter, year, total',
        ],
        [
          'startDate=2000-01-01&endDate=2026-01-01&groupBy=week',
          'groupBy week: the range makes more than 1000 week periods',
        ],
      );
    }
    for (const [query, message] of cases) {
      const response = await server.request('GET', url(query));
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toMatch(message);
      expect(errorOf(response).traceMatches).toBe(true);
    }
  });

  it('accepts exactly 1,000 periods and refuses 1,001', async () => {
    // 2007-01-01 is a Monday; 1,000 weeks end on Sunday 2026-03-01.
    const url = (end: string) =>
      `${base}/reports/trial-balance?startDate=2007-01-01&endDate=${end}&groupBy=week`;
    const response = await server.request('GET', url('2026-03-01'));
    expect(response.status).toBe(200);
    expect(response.body.report.periods).toHaveLength(1000);
    expect(response.body.report.periods[999]).toEqual({
      startDate: '2026-02-23',
      endDate: '2026-03-01',
    });
    expect((await server.request('GET', url('2026-03-02'))).status).toBe(400);
  });

  it('answers 404 for another organization, an unknown entity, or an unknown ledger account', async () => {
    const { token } = await createOrganization(server);
    for (const kind of REPORTS) {
      expect(
        (
          await server.request(
            'GET',
            `${base}/reports/${kind}?startDate=2026-01-01&endDate=2026-01-31`,
            { token },
          )
        ).status,
      ).toBe(404);
    }
    expect(
      (
        await server.request(
          'GET',
          '/platform/v1/entities/00000000-0000-4000-8000-000000000000/reports/trial-balance?startDate=2026-01-01&endDate=2026-01-31',
        )
      ).status,
    ).toBe(404);
    const unknownAccount = await server.request(
      'GET',
      `${base}/reports/general-ledger?startDate=2026-01-01&endDate=2026-01-31&accountId=00000000-0000-4000-8000-000000000000`,
    );
    expect(errorOf(unknownAccount)).toEqual({
      status: 404,
      message: 'account not found',
      traceMatches: true,
    });
  });

  it('answers empty reports for an entity without postings', async () => {
    const pl = await server.request(
      'GET',
      `${base}/reports/profit-and-loss?startDate=2026-01-01&endDate=2026-03-31&groupBy=quarter`,
    );
    expect(pl.body.report.sections.every((s: any) => s.total === 0 && s.lines.length === 0)).toBe(
      true,
    );
    const bs = await server.request(
      'GET',
      `${base}/reports/balance-sheet?startDate=2026-01-01&endDate=2026-03-31`,
    );
    expect(bs.body.report.sections[2].lines.map((l: any) => l.kind)).toEqual([
      'retained_earnings',
      'net_income',
    ]);
  });
});
