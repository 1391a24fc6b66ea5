import { describe, expect, it } from 'vitest';
import type { Account, BankFeedConnection, BankTransaction } from '../../src/api/index.js';
import type { Cents } from '../../src/core/money.js';
import type { BankStatement, StatementEntry } from '../../src/formats/statement.js';
import { reconcileStatements, type BookPosting } from '../../src/migrate/close/match.js';
import {
  DEFAULT_SUSPENSE_ACCOUNTS,
  isReady,
  reviewChecks,
  type ReviewData,
} from '../../src/migrate/close/review.js';

/*
 * The close's pure logic: statement entries matched to postings (match.ts), and the review's
 * checks (review.ts), on data made here, each figure computed here.
 */

const c = (n: number) => n as Cents;
let line = 0;
const entry = (
  bookingDate: string,
  amount: number,
  description = '',
  extra: Partial<StatementEntry> = {},
): StatementEntry => ({
  bookingDate,
  valueDate: null,
  amount: c(amount),
  reference: null,
  counterparty: null,
  description,
  status: 'booked',
  line: ++line,
  ...extra,
});
const posting = (date: string, amount: number, description = '', memo = ''): BookPosting => ({
  entryId: `je-${date}-${amount}-${description}`,
  date,
  amount: c(amount),
  description,
  memo,
  counterparty: null,
  sourceType: 'manual',
});
const statement = (
  entries: StatementEntry[],
  extra: Partial<BankStatement> = {},
): BankStatement => {
  const opening = extra.opening === undefined ? c(0) : extra.opening;
  const sum = entries.filter((e) => e.status === 'booked').reduce((n, e) => n + e.amount, 0);
  return {
    account: 'NL91ABNA0417164300',
    currency: 'EUR',
    from: '2026-10-01',
    to: '2026-10-31',
    opening,
    closing: opening === null ? null : c(opening + sum),
    entries,
    card: false,
    line: 1,
    ...extra,
  };
};
const booksAt = (postings: BookPosting[], opening = 0) => ({
  booksOpening: c(opening),
  booksClosing: c(
    opening + postings.filter((p) => p.date >= '2026-10-01').reduce((n, p) => n + p.amount, 0),
  ),
});

describe('matching statement entries to postings', () => {
  it('one to one within the days; the reference and the text break ties, the nearest day next', () => {
    const postings = [
      posting('2026-10-04', -50_00, 'Office supplies', 'Staples'),
      posting('2026-10-05', -50_00, 'Window cleaner', 'Shiny Windows BV'),
    ];
    const result = reconcileStatements({
      statements: [statement([entry('2026-10-06', -50_00, 'SHINY WINDOWS BV INVOICE 77')])],
      postings,
      ...booksAt(postings),
      days: 3,
    });
    expect(result.matches).toHaveLength(1);
    expect(result.matches[0]!.postings[0]!.description).toBe('Window cleaner');
    expect(result.notOnStatement.map((p) => p.description)).toEqual(['Office supplies']);
    expect(result.difference).toBe(0);
  });

  it('a cheque by its number however late it clears; without a number, never past the days', () => {
    const postings = [
      posting('2026-10-02', -300_00, 'Cheque 1042 painter'),
      posting('2026-10-02', -120_00, 'Plumber'),
    ];
    const result = reconcileStatements({
      statements: [
        statement([
          entry('2026-10-25', -300_00, 'CHECK 1042'),
          entry('2026-10-25', -120_00, 'DEBIT'),
        ]),
      ],
      postings,
      ...booksAt(postings),
      days: 3,
    });
    expect(result.matches.map((m) => m.kind)).toEqual(['reference']);
    expect(result.missingInBooks.map((e) => e.amount)).toEqual([-120_00]);
    expect(result.notOnStatement.map((p) => p.amount)).toEqual([-120_00]);
    expect(result.reconciled).toBe(false);
  });

  it('one entry to postings of its days that make it; several entries to one posting', () => {
    const postings = [
      posting('2026-10-10', 40_00, 'Receipt 1'),
      posting('2026-10-10', 60_00, 'Receipt 2'),
      posting('2026-10-11', 100_00, 'Receipt 3'),
      posting('2026-10-11', 7_00, 'Receipt 4'),
      posting('2026-10-20', -900_00, 'Payroll October'),
    ];
    const result = reconcileStatements({
      statements: [
        statement([
          entry('2026-10-12', 107_00, 'DEPOSIT'),
          entry('2026-10-13', 100_00, 'DEPOSIT'),
          entry('2026-10-20', -450_00, 'SALARY A'),
          entry('2026-10-20', -450_00, 'SALARY B'),
        ]),
      ],
      postings,
      ...booksAt(postings),
      days: 3,
    });
    // One to one first (the 100 deposit, two days after its receipt); then the 107 deposit
    // takes the postings of its days that make it, none taken twice; the two salaries make the
    // one payroll posting.
    const parts = result.matches.map((m) => [
      m.kind,
      m.entries.map((e) => e.amount),
      m.postings.map((p) => p.amount).sort((a, b) => a - b),
    ]);
    expect(parts).toEqual([
      ['within days', [100_00], [100_00]],
      ['several postings', [107_00], [7_00, 40_00, 60_00]],
      ['several entries', [-450_00, -450_00], [-900_00]],
    ]);
    expect(result.missingInBooks).toEqual([]);
    expect(result.notOnStatement).toEqual([]);
    expect(result.reconciled).toBe(true);
    const used = result.matches.flatMap((m) => m.postings);
    expect(new Set(used).size).toBe(used.length);
  });

  it('nothing twice: two equal entries against one posting leave one missing', () => {
    const postings = [posting('2026-10-15', -9_99, 'Card fee')];
    const result = reconcileStatements({
      statements: [
        statement([entry('2026-10-15', -9_99, 'FEE'), entry('2026-10-15', -9_99, 'FEE')]),
      ],
      postings,
      ...booksAt(postings),
      days: 3,
    });
    expect(result.matched).toBe(1);
    expect(result.missingInBooks).toHaveLength(1);
    expect(result.difference).toBe(-9_99);
  });

  it('a booked movement of 0.00 is not reconciled, and said: it moves no money, and import leaves it out', () => {
    const postings = [posting('2026-10-15', -9_99, 'Card fee')];
    const result = reconcileStatements({
      statements: [
        statement([
          entry('2026-10-14', 0, 'CARD RENEWAL FEE WAIVED'),
          entry('2026-10-15', -9_99, 'FEE'),
        ]),
      ],
      postings,
      ...booksAt(postings),
      days: 3,
    });
    expect(result.missingInBooks).toEqual([]);
    expect(result.matched).toBe(1);
    expect(result.reconciled).toBe(true);
    expect(result.notes).toContain(
      '1 movement of 0.00 on the statement moves no money: not reconciled (books transactions import leaves it out)',
    );
  });

  it('pending entries are not reconciled, and said', () => {
    const result = reconcileStatements({
      statements: [statement([entry('2026-10-15', -5_00, 'AUTH', { status: 'pending' })])],
      postings: [],
      ...booksAt([]),
      days: 3,
    });
    expect(result.pending).toHaveLength(1);
    expect(result.reconciled).toBe(true);
    expect(result.notes).toContain(
      '1 entry is pending or for information only on the statement: not reconciled',
    );
  });

  it("the bank's balances where a statement states fewer: from its closing; one that states none proves nothing without balances given", () => {
    const postings = [posting('2026-10-03', 20_00, 'x')];
    const noOpening = reconcileStatements({
      statements: [
        { ...statement([entry('2026-10-03', 20_00)], { opening: c(500_00) }), opening: null },
      ],
      postings,
      ...booksAt(postings, 500_00),
      days: 3,
    });
    expect(noOpening.bank).toEqual({ opening: 500_00, closing: 520_00 });
    expect(noOpening.notes[0]).toMatch(
      /states no opening balance: its closing balance less its entries, 500\.00/,
    );
    // A bank CSV without a balance column: the books' own opening taken as the bank's
    // "reconciled" it whatever the books held. Now it is not reconciled, and says what it lacks.
    const none = reconcileStatements({
      statements: [statement([entry('2026-10-03', 20_00)], { opening: null })],
      postings,
      ...booksAt(postings, 500_00),
      days: 3,
    });
    expect(none.bank).toEqual({ opening: 500_00, closing: 520_00 });
    expect(none.reconciled).toBe(false);
    expect(none.unproven).toEqual([
      'the statement states no balance: give its closing balance, as the bank states it, with --closing-balance AMOUNT',
      'no earlier statement of the account was reconciled: give the opening balance too, with --opening-balance AMOUNT',
    ]);
    // With the bank's balances given it proves them: the closing given is the bank's.
    const given = reconcileStatements({
      statements: [statement([entry('2026-10-03', 20_00)], { opening: null })],
      postings,
      ...booksAt(postings, 500_00),
      days: 3,
      given: { opening: c(500_00), closing: c(520_00) },
    });
    expect(given).toMatchObject({ reconciled: true, unproven: [], difference: 0 });
    const wrong = reconcileStatements({
      statements: [statement([entry('2026-10-03', 20_00)], { opening: null })],
      postings,
      ...booksAt(postings, 500_00),
      days: 3,
      given: { opening: c(500_00), closing: c(540_00) },
    });
    expect(wrong).toMatchObject({ reconciled: false, difference: 20_00 });
    expect(wrong.notes).toContain(
      'the closing balance given, 540.00, is not the opening balance and the entries, 520.00: 20.00 apart',
    );
    // The opening of the statement reconciled before: only the closing is wanted.
    const chained = reconcileStatements({
      statements: [statement([entry('2026-10-03', 20_00)], { opening: null })],
      postings,
      ...booksAt(postings, 500_00),
      days: 3,
      given: { opening: c(500_00), closing: c(520_00), openingFrom: '2026-09-30' },
    });
    expect(chained.reconciled).toBe(true);
    expect(chained.notes).toContain(
      'the statement states no balance: the closing balance of the statement reconciled to 2026-09-30, 500.00, taken as its opening',
    );
  });

  it('a line the bank sent, dated inside the statement but not on it, is no outstanding item: the account does not reconcile', () => {
    // The same month brought in twice: the second copy of each line is "not on the statement"
    // and was counted outstanding, like an uncashed cheque, and the account reconciled.
    const lines = [entry('2026-10-03', -1200_00, 'RENT'), entry('2026-10-10', 845_20, 'SALES')];
    const postings = [
      { ...posting('2026-10-03', -1200_00, 'RENT'), entryId: 'bt-1' },
      { ...posting('2026-10-10', 845_20, 'SALES'), entryId: 'bt-2' },
      { ...posting('2026-10-03', -1200_00, 'RENT'), entryId: 'bt-3' },
      { ...posting('2026-10-10', 845_20, 'SALES'), entryId: 'bt-4' },
      // A cheque written by journal entry, not yet cleared: outstanding as ever.
      { ...posting('2026-10-28', -50_00, 'Cheque 104'), entryId: 'je-1' },
    ];
    const input = {
      statements: [statement(lines)],
      postings,
      booksOpening: c(0),
      booksClosing: c(2 * (-1200_00 + 845_20) - 50_00),
      days: 3,
    };
    expect(reconcileStatements(input).reconciled).toBe(true);
    const result = reconcileStatements({
      ...input,
      bankLines: new Set(['bt-1', 'bt-2', 'bt-3', 'bt-4']),
    });
    expect(result.reconciled).toBe(false);
    expect(result.difference).toBe(0);
    expect(result.sentNotOnStatement.map((p) => p.entryId).sort()).toEqual(['bt-3', 'bt-4']);
    expect(result.notOnStatement.map((p) => p.entryId)).toEqual(['je-1']);
  });

  it('statements chained by period: a gap, and one that does not open where the last closed, are said', () => {
    const september = statement([entry('2026-09-10', 10_00)], {
      from: '2026-09-01',
      to: '2026-09-15',
      opening: c(0),
    });
    const october = statement([entry('2026-10-10', 10_00)], { opening: c(50_00) });
    const result = reconcileStatements({
      statements: [october, september],
      postings: [posting('2026-09-10', 10_00), posting('2026-10-10', 10_00)],
      booksOpening: c(0),
      booksClosing: c(20_00),
      days: 3,
    });
    expect(result.from).toBe('2026-09-01');
    expect(result.notes).toContain(
      'the statement from 2026-10-01 opens at 50.00, the one before it closed at 10.00: a statement between them may be missing',
    );
    const gap = reconcileStatements({
      statements: [september, statement([entry('2026-10-10', 10_00)], { opening: c(10_00) })],
      postings: [],
      booksOpening: c(0),
      booksClosing: c(0),
      days: 3,
    });
    expect(gap.notes).toContain('no statement covers 2026-09-16 to 2026-09-30');
  });

  it('a posting within the days before the first statement may still match (a cheque written the day before)', () => {
    const postings = [posting('2026-09-30', -75_00, 'Cheque 77')];
    const result = reconcileStatements({
      statements: [statement([entry('2026-10-02', -75_00, 'CHQ 77')], { opening: c(1_000_00) })],
      postings,
      booksOpening: c(925_00),
      booksClosing: c(925_00),
      days: 3,
    });
    expect(result.matched).toBe(1);
    expect(result.difference).toBe(0);
    expect(result.reconciled).toBe(true);
  });

  it('where the bank opens at the books’ balance, no posting of before is taken for an entry of the period', () => {
    // A fee of 12.50 was booked and cleared on 30 September; October's fee is not booked yet.
    const result = reconcileStatements({
      statements: [
        statement([entry('2026-10-01', -12_50, 'Account fee')], { opening: c(1_000_00) }),
      ],
      postings: [posting('2026-09-30', -12_50, 'Account fee')],
      booksOpening: c(1_000_00),
      booksClosing: c(1_000_00),
      days: 3,
    });
    expect(result.matched).toBe(0);
    expect(result.missingInBooks.map((e) => e.amount)).toEqual([-12_50]);
    expect(result.difference).toBe(-12_50);
    expect(result.reconciled).toBe(false);
  });

  it('a deposit of two receipts on the first day is found behind a busy day before the period', () => {
    // 500 payments of 30 September, all cleared in September (the bank opens at the books'
    // balance), then two receipts of 1 October paid in as one deposit.
    const before = Array.from({ length: 500 }, (_, i) =>
      posting('2026-09-30', -(1_00 + i), `Payment ${i}`),
    );
    const result = reconcileStatements({
      statements: [statement([entry('2026-10-01', 300_00, 'Deposit')], { opening: c(5_000_00) })],
      postings: [
        ...before,
        posting('2026-10-01', 100_00, 'Receipt A'),
        posting('2026-10-01', 200_00, 'Receipt B'),
      ],
      booksOpening: c(5_000_00),
      booksClosing: c(5_300_00),
      days: 3,
    });
    expect(result.matches.map((m) => [m.kind, m.postings.length])).toEqual([
      ['several postings', 2],
    ]);
    expect(result.notOnStatement).toEqual([]);
    expect(result.reconciled).toBe(true);
  });

  it('of more postings in the days than are looked at, the nearest to the entry are', () => {
    // The bank opens below the books (something of before was outstanding), so the days
    // before may match: 500 of them, then the two receipts the deposit is made of.
    const before = Array.from({ length: 500 }, (_, i) =>
      posting('2026-09-29', 1_00 + i, `Receipt ${i}`),
    );
    const result = reconcileStatements({
      statements: [statement([entry('2026-10-01', 300_00, 'Deposit')], { opening: c(4_000_00) })],
      postings: [
        ...before,
        posting('2026-10-01', 100_00, 'Receipt A'),
        posting('2026-10-01', 200_00, 'Receipt B'),
      ],
      booksOpening: c(5_000_00),
      booksClosing: c(5_300_00),
      days: 3,
    });
    expect(result.matches.map((m) => m.postings.map((p) => p.description))).toEqual([
      ['Receipt A', 'Receipt B'],
    ]);
  });
});

describe('the close review', () => {
  const account = (name: string, type: Account['type'], id = name): Account => ({
    id,
    name,
    code: String(1000 + name.length),
    type,
    class: (
      {
        Cash: 'Assets',
        'Accounts Receivable': 'Assets',
        'Accounts Payable': 'Liabilities',
        Income: 'Income',
        'Operating Expenses': 'Expenses',
        Equity: 'Equity',
        'Other Current Assets': 'Assets',
      } as Record<string, Account['class']>
    )[type]!,
    groupId: null,
    financialAccountId: null,
    isDisabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const base = (extra: Partial<ReviewData> = {}): ReviewData => ({
    period: { startDate: '2026-10-01', endDate: '2026-10-31' },
    today: '2026-11-27',
    bookkeepingStartDate: '2026-01-01',
    chart: [],
    balances: new Map(),
    months: new Map(),
    connections: [],
    transactions: [],
    entries: [],
    futureEntries: [],
    statements: undefined,
    ...extra,
  });
  const settings = {
    suspenseAccounts: [...DEFAULT_SUSPENSE_ACCOUNTS, 'Clearing'],
    fluxPercent: 50,
    fluxAmount: c(1_000_00),
  };
  const checkOf = (data: ReviewData, id: string) =>
    reviewChecks(data, settings).find((x) => x.id === id)!;
  const connection = (
    createdAt: string,
    status: 'syncing' | 'broken' = 'syncing',
  ): BankFeedConnection => ({
    id: 'c1',
    entityId: 'e1',
    bankName: 'Bank',
    status,
    financialAccounts: [{ id: 'f1', name: 'Current', kind: 'bank', chartAccountId: 'a1' }],
    createdAt,
  });
  const transaction = (
    accountId: string | null,
    category: BankTransaction['category'] = accountId === null
      ? null
      : { kind: 'account', account: { id: accountId, code: '6000', name: 'Supplies' }, memo: null },
  ): BankTransaction => ({
    id: 't1',
    entityId: 'e1',
    financialAccountId: 'f1',
    bankAccount: { id: 'a1', code: '1000', name: 'Current' },
    date: '2026-10-05',
    amount: -12.5,
    description: 'SHOP',
    reference: null,
    accountId,
    ruleId: null,
    status: category === null ? 'uncategorized' : 'categorized',
    category,
    decidedBy: category === null ? null : 'person',
    decidedAt: category === null ? null : '2026-10-06T09:00:00.000Z',
    version: category === null ? 0 : 1,
  });

  it('a feed is silent only when it had the whole month; broken always fails', () => {
    expect(
      checkOf(base({ connections: [connection('2026-09-01T10:00:00.000Z')] }), 'bank-feeds'),
    ).toMatchObject({
      status: 'fail',
      items: ['Bank (Current): silent, no transaction from 2026-10-01 to 2026-10-31'],
    });
    expect(
      checkOf(base({ connections: [connection('2026-10-15T10:00:00.000Z')] }), 'bank-feeds').status,
    ).toBe('pass');
    expect(
      checkOf(
        base({
          connections: [connection('2026-09-01T10:00:00.000Z')],
          transactions: [transaction('x')],
        }),
        'bank-feeds',
      ).status,
    ).toBe('pass');
    expect(
      checkOf(
        base({ connections: [connection('2026-11-01T10:00:00.000Z', 'broken')] }),
        'bank-feeds',
      ).items,
    ).toEqual(['Bank (Current): broken']);
    expect(
      checkOf(base({ connections: undefined, transactions: undefined }), 'bank-feeds').status,
    ).toBe('skipped');
  });

  it('uncategorized bank transactions fail; categorized ones pass', () => {
    expect(checkOf(base({ transactions: [transaction(null)] }), 'uncategorized')).toMatchObject({
      status: 'fail',
      items: ['2026-10-05 -12.50 SHOP (t1)'],
    });
    expect(checkOf(base({ transactions: [transaction('a2')] }), 'uncategorized').status).toBe(
      'pass',
    );
  });

  it('a split, a match and an excluded line post to no one account, and none of them waits', () => {
    const split = transaction(null, {
      kind: 'split',
      splits: [
        { account: { id: 'a2', code: '6000', name: 'Supplies' }, amount: 10, memo: null },
        { account: { id: 'a3', code: '6100', name: 'Meals' }, amount: 2.5, memo: null },
      ],
    });
    const match = transaction(null, {
      kind: 'match',
      entryId: 'j1',
      entryDate: '2026-10-04',
      entryMemo: 'payroll',
    });
    const excluded = { ...transaction(null), status: 'excluded' as const };
    expect(checkOf(base({ transactions: [split, match, excluded] }), 'uncategorized').status).toBe(
      'pass',
    );
  });

  it("suspense: the usual accounts and the settings' own; Opening Balance Equity only after the books' first month", () => {
    const chart = [
      account('Ask My Accountant', 'Other Current Assets'),
      account('Opening Balance Equity', 'Equity'),
      account('Clearing', 'Other Current Assets'),
    ];
    const balances = new Map([
      ['Ask My Accountant', c(80_00)],
      ['Opening Balance Equity', c(-500_00)],
      ['Clearing', c(1_00)],
    ]);
    expect(checkOf(base({ chart, balances }), 'suspense').items).toEqual([
      `${chart[0]!.code} Ask My Accountant: 80.00 debit`,
      `${chart[1]!.code} Opening Balance Equity: 500.00 credit`,
      `${chart[2]!.code} Clearing: 1.00 debit`,
    ]);
    const firstMonth = base({ chart, balances, bookkeepingStartDate: '2026-10-01' });
    expect(checkOf(firstMonth, 'suspense').items).toHaveLength(2);
  });

  it('negative cash and the wrong side warn, and leave the entity ready', () => {
    const chart = [
      account('Checking', 'Cash'),
      account('Receivables', 'Accounts Receivable'),
      account('Payables', 'Accounts Payable'),
      account('Sales', 'Income'),
    ];
    const balances = new Map([
      ['Checking', c(-10_00)],
      ['Receivables', c(-200_00)],
      ['Payables', c(30_00)],
      ['Sales', c(5_00)],
    ]);
    const checks = reviewChecks(base({ chart, balances }), settings);
    expect(checks.find((x) => x.id === 'negative-cash')!.count).toBe(1);
    expect(checks.find((x) => x.id === 'wrong-side')!.items).toEqual([
      `${chart[1]!.code} Receivables (Accounts Receivable): 200.00 credit`,
      `${chart[2]!.code} Payables (Accounts Payable): 30.00 debit`,
      `${chart[3]!.code} Sales (Income): 5.00 debit`,
    ]);
    expect(isReady(checks)).toBe(true);
  });

  it("flux: past both the share and the amount of the three months' average", () => {
    const chart = [
      account('Office', 'Operating Expenses'),
      account('Rent', 'Operating Expenses'),
      account('Travel', 'Operating Expenses'),
    ];
    const months = new Map<string, Cents[]>([
      ['Office', [c(100_00), c(100_00), c(100_00), c(4_000_00)]],
      // 60% more, but only 600.00: under the amount.
      ['Rent', [c(1_000_00), c(1_000_00), c(1_000_00), c(1_600_00)]],
      // 1,500.00 more, but 10% of 15,000: under the share.
      ['Travel', [c(15_000_00), c(15_000_00), c(15_000_00), c(16_500_00)]],
    ]);
    expect(checkOf(base({ chart, months }), 'flux').items).toEqual([
      `${chart[0]!.code} Office: 4,000.00 in the month against an average of 100.00 (+3,900.00)`,
    ]);
  });

  it('duplicates: every pair of bank lines posted twice, whatever each was categorized to; a held line fails', () => {
    // The month brought in twice: a rule took the first rent, its twin waits; the sales went
    // to one account and the other. The check compared their postings' accounts and found none.
    const rent = { ...transaction('r-rule'), id: 'rent-1', description: 'RENT HARBOUR' };
    const rentTwin = { ...transaction(null), id: 'rent-2', description: 'Rent Harbour' };
    const sales = { ...transaction('s1'), id: 'sales-1', amount: 845.2, description: 'SUMUP' };
    const salesTwin = { ...transaction('s2'), id: 'sales-2', amount: 845.2, description: 'SUMUP' };
    const other = { ...transaction(null), id: 'other', description: 'ANOTHER SHOP' };
    const found = checkOf(
      base({ transactions: [rent, rentTwin, sales, salesTwin, other] }),
      'duplicates',
    );
    expect(found).toMatchObject({ status: 'warn', count: 2 });
    expect(found.items).toEqual([
      '2026-10-05 -12.50 RENT HARBOUR / Rent Harbour on 1000 Current ×2 (rent-1, rent-2)',
      '2026-10-05 845.20 SUMUP / SUMUP on 1000 Current ×2 (sales-1, sales-2)',
    ]);
    const held: BankTransaction = {
      ...transaction(null),
      id: 'held',
      status: 'possible-duplicate',
      duplicateOf: { id: 'rent-1', date: '2026-10-04', amount: -12.5, description: 'RENT HARBOUR' },
    };
    expect(checkOf(base({ transactions: [held] }), 'duplicates')).toMatchObject({
      status: 'fail',
      items: [
        '2026-10-05 -12.50 SHOP (held): held as a possible duplicate of 2026-10-04 RENT HARBOUR (rent-1)',
      ],
    });
  });

  it('duplicates: alike in date, accounts, amounts and text; future-dated entries', () => {
    const lines = [
      { accountId: 'a', debit: c(59_90), credit: c(0), description: '' },
      { accountId: 'b', debit: c(0), credit: c(59_90), description: '' },
    ];
    const entries = [
      { id: 'j1', date: '2026-10-24', sourceType: 'manual', memo: 'Paper', lines },
      {
        id: 'j2',
        date: '2026-10-24',
        sourceType: 'manual',
        memo: 'paper',
        lines: [...lines].reverse(),
      },
      { id: 'j3', date: '2026-10-25', sourceType: 'manual', memo: 'Paper', lines },
    ];
    expect(checkOf(base({ entries }), 'duplicates').items).toEqual([
      '2026-10-24 59.90 Paper ×2 (j1, j2)',
    ]);
    expect(
      checkOf(
        base({ futureEntries: [{ id: 'j9', date: '2062-10-01', memo: 'Typo' }] }),
        'future-dated',
      ).items,
    ).toEqual(['2062-10-01 Typo (j9)']);
  });

  it('tax: skipped where the entity keeps no codes; fails naming what keeps the return from tying; warns of uncoded lines', () => {
    expect(checkOf(base(), 'tax')).toMatchObject({
      status: 'skipped',
      hint: 'the entity is not registered for VAT (books tax setup registers it)',
    });
    const line = {
      journalEntryId: 'j1',
      date: '2026-10-02',
      accountCode: '2000',
      accountName: 'VAT on Sales',
      taxCode: null,
      description: 'Cash sale',
    };
    const taxReturn = {
      entityId: 'e1',
      country: 'GB' as const,
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      basis: 'accrual' as const,
      boxes: [],
      net: 0,
      declaredVat: 0,
      vatAccountsMovement: 20,
      ties: false,
      problems: [
        {
          ...line,
          kind: 'vat-without-code',
          message: 'a posting on a VAT account carries no tax code',
        },
      ],
      uncoded: [],
    };
    expect(checkOf(base({ taxReturn }), 'tax')).toMatchObject({
      status: 'fail',
      count: 2,
      items: [
        'the VAT accounts moved 20.00, the coded postings declare 0.00',
        '2026-10-02 2000 VAT on Sales "Cash sale" (j1): a posting on a VAT account carries no tax code',
      ],
    });
    const tied = {
      ...taxReturn,
      vatAccountsMovement: 0,
      ties: true,
      problems: [],
      uncoded: [{ ...line, accountCode: '4000', accountName: 'Sales' }],
    };
    expect(checkOf(base({ taxReturn: tied }), 'tax')).toMatchObject({
      status: 'warn',
      items: ['2026-10-02 4000 Sales "Cash sale" (j1): no tax code'],
    });
    expect(checkOf(base({ taxReturn: { ...tied, uncoded: [] } }), 'tax').status).toBe('pass');
  });
});
