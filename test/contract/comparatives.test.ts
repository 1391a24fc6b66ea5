import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { expectGolden } from '../helpers/golden.js';

/**
 * Comparative reports (`--compare prior-period|prior-year`) on generated books whose amounts the
 * test knows: every amount, comparison, change and percent of the CSV, long CSV and JSON
 * outputs is checked against sums the test computes from the postings it made, month by month
 * and year over year, on both bases; the terminal statement is pinned at 100 and 60 columns.
 */
const clock: Clock = { now: () => new Date('2026-04-10T12:00:00Z'), sleep: async () => undefined };

type Basis = 'cash' | 'accrual';
interface Posting {
  date: string;
  account: string;
  /** Debit positive, in cents. */
  cents: number;
}

const TYPES: Record<string, string> = {
  Checking: 'Cash',
  Sales: 'Income',
  Consulting: 'Income',
  Rent: 'Operating Expenses',
  Supplies: 'Operating Expenses',
  Loan: 'Long-Term Loans',
  Owner: 'Equity',
};
const INCOME = new Set(['Sales', 'Consulting']);
const EXPENSES = new Set(['Rent', 'Supplies']);
const MONTHS = Array.from({ length: 15 }, (_, k) => {
  const year = 2025 + Math.floor(k / 12);
  return `${year}-${String((k % 12) + 1).padStart(2, '0')}`;
});
const lastDay = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0))
    .toISOString()
    .slice(0, 10);

/** The books, generated: every month's sales grow; rent only in 2026; supplies only in 2025. */
function generatedPostings(basis: Basis): Posting[] {
  const postings: Posting[] = [];
  const entry = (date: string, debit: string, credit: string, cents: number) =>
    postings.push({ date, account: debit, cents }, { date, account: credit, cents: -cents });
  entry('2025-01-01', 'Checking', 'Owner', 500_000);
  entry('2025-01-15', 'Checking', 'Loan', 1_000_000);
  MONTHS.forEach((month, k) => {
    const sales = 100_000 + 3_713 * k + (basis === 'accrual' ? 10_000 + 1_111 * (k % 4) : 0);
    entry(`${month}-10`, 'Checking', 'Sales', sales);
    if (month >= '2026-01') entry(`${month}-01`, 'Rent', 'Checking', 50_000);
    else entry(`${month}-20`, 'Supplies', 'Checking', 4_550 + 100 * k);
    if (month === '2026-02') entry(`${month}-25`, 'Checking', 'Consulting', 77_777);
  });
  return postings;
}

const amount = (c: number) => (c / 100).toFixed(2);
/** The change in percent, computed here on its own: to a tenth, blank when the base is zero. */
function percent(current: number, base: number): string {
  if (base === 0) return '';
  const change = current - base;
  const tenths = Math.round((Math.abs(change) * 1000) / Math.abs(base));
  return ((change < 0 ? -tenths : tenths) / 10).toFixed(1);
}

/** A cell's four figures as the CSV writes them: amount, comparison, change, percent. */
const compared = (current: number, base: number) => [
  amount(current),
  amount(base),
  amount(current - base),
  percent(current, base),
];

/** A P&L account's amount over days: income as credits, expenses as debits. */
function profitAndLoss(postings: Posting[], account: string, from: string, to: string): number {
  const sum = postings
    .filter((p) => p.account === account && p.date >= from && p.date <= to)
    .reduce((total, p) => total + p.cents, 0);
  return INCOME.has(account) ? -sum : sum;
}
const netIncome = (postings: Posting[], from: string, to: string) =>
  [...INCOME].reduce((n, a) => n + profitAndLoss(postings, a, from, to), 0) -
  [...EXPENSES].reduce((n, a) => n + profitAndLoss(postings, a, from, to), 0);
/** A balance at the end of a day: debit less credit since the first posting. */
const balanceAt = (postings: Posting[], account: string, day: string) =>
  postings.filter((p) => p.account === account && p.date <= day).reduce((n, p) => n + p.cents, 0);
/**
 * A trial balance's figure at the end of a day, debit less credit: balance-sheet accounts since
 * the first posting, income and expenses since the start of the day's (calendar) fiscal year,
 * and the Retained Earnings row the results of the years before.
 */
const trialBalanceAt = (postings: Posting[], account: string, day: string) => {
  const yearStart = `${day.slice(0, 4)}-01-01`;
  const results = (p: Posting) => INCOME.has(p.account) || EXPENSES.has(p.account);
  const sum = (keep: (p: Posting) => boolean) =>
    postings.filter(keep).reduce((n, p) => n + p.cents, 0);
  if (account === 'Retained Earnings') return sum((p) => results(p) && p.date < yearStart);
  if (INCOME.has(account) || EXPENSES.has(account))
    return sum((p) => p.account === account && p.date >= yearStart && p.date <= day);
  return balanceAt(postings, account, day);
};

describe('comparative reports', () => {
  const home = temporaryHome();
  const postings: Record<Basis, Posting[]> = {
    cash: generatedPostings('cash'),
    accrual: generatedPostings('accrual'),
  };
  const run = (args: string[], tty = false, columns?: number) =>
    runCli(args, { env: home.env, services: { clock }, tty, ...(columns && { columns }) });
  const ok = async (...args: string[]) => {
    const result = await run(args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    await ok('workspace', 'create', 'Compared Books');
    await ok(
      'sandbox',
      'entity',
      'create',
      'Harbor Cafe',
      '-w',
      'Compared Books',
      '--start-date',
      '2025-01-01',
    );
    await ok('use', '-w', 'Compared Books', '-e', 'Harbor Cafe');
    await ok('sandbox', 'entity', 'open-accrual');
    for (const basis of ['cash', 'accrual'] as const) {
      const rows = ['entry,date,account,account_type,amount'];
      for (let i = 0; i < postings[basis].length; i += 2) {
        for (const p of postings[basis].slice(i, i + 2)) {
          rows.push(`${i / 2 + 1},${p.date},${p.account},${TYPES[p.account]},${amount(p.cents)}`);
        }
      }
      const file = path.join(home.home, `${basis}.csv`);
      writeFileSync(file, `${rows.join('\n')}\n`);
      await ok(
        'je',
        'import',
        file,
        '--basis',
        basis,
        '--create-missing-accounts',
        '--progress',
        'none',
      );
    }
  }, 60_000);
  afterAll(() => home.cleanup());

  const q1 = ['--from', '2026-01-01', '--to', '2026-03-31'];
  const records = (text: string) => parse(text, { relax_column_count: false }) as string[][];

  /** The comparison period of each of Q1 2026's months, and of the quarter (the Total). */
  const comparisonOf = {
    'prior-year': (month: string) => `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`,
    'prior-period': (month: string) => MONTHS[MONTHS.indexOf(month) - 1]!,
  };
  const totalComparison = {
    'prior-year': ['2025-01-01', '2025-03-31'],
    'prior-period': ['2025-10-01', '2025-12-31'],
  } as const;

  describe.each(['cash', 'accrual'] as const)('on the %s basis', (basis) => {
    const books = () => postings[basis];

    it.each(['prior-year', 'prior-period'] as const)(
      'a P&L by month against the %s: every cell of the CSV',
      async (compare) => {
        const csv = await ok(
          'report',
          'pl',
          ...q1,
          '--by',
          'month',
          '--basis',
          basis,
          '--compare',
          compare,
          '-o',
          'csv',
        );
        const [header, ...rows] = records(csv);
        const months = ['2026-01', '2026-02', '2026-03'];
        const expectedHeader = ['section', 'account_code', 'account_name'];
        for (const month of months) {
          const base = comparisonOf[compare](month);
          const period = `${month}-01..${lastDay(month)}`;
          expectedHeader.push(
            period,
            `${compare} ${base}-01..${lastDay(base)}`,
            `change ${period}`,
            `change_percent ${period}`,
          );
        }
        const whole = '2026-01-01..2026-03-31';
        const [from, to] = totalComparison[compare];
        expectedHeader.push(
          whole,
          `${compare} ${from}..${to}`,
          `change ${whole}`,
          `change_percent ${whole}`,
        );
        expect(header).toEqual(expectedHeader);

        // Each account line and Net Income, column by column.
        const figure = (name: string, start: string, end: string) =>
          name === 'Net Income'
            ? netIncome(books(), start, end)
            : profitAndLoss(books(), name, start, end);
        const checked = new Set<string>();
        for (const row of rows) {
          const name = row[2]!;
          if (!(name in TYPES) && name !== 'Net Income') continue;
          checked.add(name);
          const spans: [string, string, string, string][] = months.map((month) => {
            const base = comparisonOf[compare](month);
            return [`${month}-01`, lastDay(month), `${base}-01`, lastDay(base)];
          });
          spans.push(['2026-01-01', '2026-03-31', from, to]);
          spans.forEach(([start, end, baseStart, baseEnd], i) => {
            const current = figure(name, start, end);
            const prior = figure(name, baseStart, baseEnd);
            expect(row.slice(3 + 4 * i, 7 + 4 * i), `${name} ${start}`).toEqual(
              compared(current, prior),
            );
          });
        }
        // Supplies is in the comparison only; Rent's prior year is zero (a blank percent).
        expect([...checked].sort()).toEqual([
          'Consulting',
          'Net Income',
          'Rent',
          'Sales',
          'Supplies',
        ]);
        const rent = rows.find((row) => row[2] === 'Rent')!;
        if (compare === 'prior-year') expect(rent[6]).toBe('');
      },
    );

    it('a balance sheet by month against the prior year, and a trial balance against the prior period', async () => {
      const bs = records(
        await ok(
          'report',
          'bs',
          ...q1,
          '--by',
          'month',
          '--basis',
          basis,
          '--compare',
          'prior-year',
          '-o',
          'csv',
        ),
      );
      const checking = bs.find((row) => row[2] === 'Checking')!;
      ['2026-01', '2026-02', '2026-03'].forEach((month, i) => {
        const now = balanceAt(books(), 'Checking', lastDay(month));
        const then = balanceAt(books(), 'Checking', lastDay(comparisonOf['prior-year'](month)));
        expect(checking.slice(3 + 4 * i, 7 + 4 * i)).toEqual(compared(now, then));
      });
      const tb = records(
        await ok('report', 'tb', ...q1, '--basis', basis, '--compare', 'prior-period', '-o', 'csv'),
      );
      expect(tb[0]).toEqual([
        'section',
        'account_code',
        'account_name',
        '2026-01-01..2026-03-31',
        'prior-period 2025-10-01..2025-12-31',
        'change 2026-01-01..2026-03-31',
        'change_percent 2026-01-01..2026-03-31',
      ]);
      for (const row of tb.slice(1)) {
        const now = trialBalanceAt(books(), row[2]!, '2026-03-31');
        const then = trialBalanceAt(books(), row[2]!, '2025-12-31');
        expect(row.slice(3), row[2]).toEqual(compared(now, then));
      }
      // Every account, and the Retained Earnings row: 2025's results as of 2026-03-31.
      expect(tb).toHaveLength(1 + Object.keys(TYPES).length + 1);
      expect(tb.at(-1)!.slice(0, 3)).toEqual(['accounts', '', 'Retained Earnings']);
    });

    it('a cash flow by quarter against the prior year: the change in cash', async () => {
      const cf = records(
        await ok(
          'report',
          'cf',
          '--from',
          '2026-01-01',
          '--to',
          '2026-03-31',
          '--by',
          'quarter',
          '--basis',
          basis,
          '--compare',
          'prior-year',
          '-o',
          'csv',
        ),
      );
      const change = cf.find((row) => row[2] === 'Net Cash Change')!;
      const now =
        balanceAt(books(), 'Checking', '2026-03-31') - balanceAt(books(), 'Checking', '2025-12-31');
      const then =
        balanceAt(books(), 'Checking', '2025-03-31') - balanceAt(books(), 'Checking', '2024-12-31');
      expect(change.slice(3)).toEqual(compared(now, then));
    });

    it('the long layout and JSON carry the same comparisons', async () => {
      const args = [
        'report',
        'pl',
        ...q1,
        '--by',
        'month',
        '--basis',
        basis,
        '--compare',
        'prior-year',
      ];
      const [header, ...long] = records(await ok(...args, '-o', 'csv', '--layout', 'long'));
      expect(header).toEqual([
        'period_start',
        'period_end',
        'section',
        'account_code',
        'account_name',
        'amount',
        'comparison_start',
        'comparison_end',
        'comparison',
        'change',
        'change_percent',
      ]);
      const json = JSON.parse(await ok(...args, '--json')) as {
        report: { ledgerBasis: string };
        comparison: {
          compare: string;
          report: { startDate: string; endDate: string };
          rows: { accountName: string; periods: Record<string, unknown>[] }[];
        };
      };
      expect(json.report.ledgerBasis).toBe(basis);
      expect(json.comparison).toMatchObject({
        compare: 'prior-year',
        report: { startDate: '2025-01-01', endDate: '2025-03-31' },
      });
      for (const row of long) {
        const [start, end, , , name, current, baseStart, baseEnd, prior, change, pct] = row;
        const byName = name === 'Net Income' || name! in TYPES;
        if (!byName) continue;
        const figure = (from: string, to: string) =>
          name === 'Net Income'
            ? netIncome(books(), from, to)
            : profitAndLoss(books(), name!, from, to);
        const [now, then] = [figure(start!, end!), figure(baseStart!, baseEnd!)];
        expect([current, prior, change, pct]).toEqual(compared(now, then));
        const period = json.comparison.rows
          .find((r) => r.accountName === name)!
          .periods.find((p) => p.startDate === start && p.endDate === end)!;
        expect(period).toEqual({
          startDate: start,
          endDate: end,
          comparisonStartDate: baseStart,
          comparisonEndDate: baseEnd,
          amount: now / 100 + 0,
          comparison: then / 100 + 0,
          change: (now - then) / 100,
          changePercent: pct === '' ? null : Number(pct),
        });
      }
    });
  });

  it('prints the comparative statement at a terminal, pinned at 100 and 60 columns', async () => {
    const shown: string[] = [];
    for (const [report, by, compare] of [
      ['pl', 'month', 'prior-year'],
      ['bs', 'total', 'prior-period'],
      ['tb', 'total', 'prior-year'],
    ] as const) {
      for (const columns of [100, 60]) {
        const args = ['report', report, ...q1, '--by', by, '--compare', compare];
        const result = await run(args, true, columns);
        expect(result.code, result.stderr).toBe(0);
        shown.push(`$ books ${args.join(' ')}   (${columns} columns)\n${result.stdout}`);
      }
    }
    expectGolden('cli/comparatives.txt', shown.join('\n'));
  });

  it('refuses a comparison it does not make', async () => {
    const result = await run(['report', 'pl', ...q1, '--compare', 'last-decade']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'books: --compare must be prior-period or prior-year, not "last-decade"\n',
    });
  });
});
