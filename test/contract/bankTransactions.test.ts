import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import {
  errorOf as errorBody,
  MISSING_ID,
  startServer,
  type TestServer,
} from '../helpers/server.js';

const errorOf = (response: Parameters<typeof errorBody>[0]) => {
  expect(errorBody(response).traceMatches).toBe(true);
  return errorBody(response).message;
};

/**
 * The sandbox control plane's bank transactions decided (issue 50): the for-review queue with
 * suggestions, each kind of decision, the rules run on what waits, the firm's morning summary —
 * every documented status, the books tying after every step, on SQLite and PostgreSQL.
 */
describe('deciding bank transactions', () => {
  let server: TestServer;
  let books: TestEntity;
  let checking: { id: string; chartAccountId: string };
  let card: { id: string; chartAccountId: string };
  let telephone: any;
  let office: any;
  let meals: any;
  let sales: any;
  let fees: any;
  let payroll: any;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    telephone = await books.account('Telephone', 'Operating Expenses');
    office = await books.account('Office Supplies', 'Operating Expenses');
    meals = await books.account('Meals', 'Operating Expenses');
    sales = await books.account('Sales', 'Income');
    fees = await books.account('Bank Fees', 'Operating Expenses');
    payroll = await books.account('Payroll', 'Operating Expenses');
    const connection = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/bank-feed-connections`,
      {
        body: {
          bankName: 'Chase',
          accounts: [
            { name: 'Chase Checking', kind: 'bank' },
            { name: 'Chase Sapphire', kind: 'credit_card' },
          ],
        },
      },
    );
    [checking, card] = connection.body.connection.financialAccounts;
  });

  const push = async (financialAccountId: string, transactions: unknown[]) => {
    const response = await server.request(
      'POST',
      `/sandbox/v1/financial-accounts/${financialAccountId}/transactions`,
      { body: { transactions } },
    );
    expect(response.status, response.text).toBe(201);
    return response.body.data as any[];
  };
  const decide = (
    transaction: { id: string; version: number },
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ) =>
    server.request('POST', `/sandbox/v1/transactions/${transaction.id}/decision`, {
      body: { version: transaction.version, ...body },
      ...(headers && { headers }),
    });
  const queue = async (query = '') =>
    (await server.request('GET', `/sandbox/v1/entities/${books.entityId}/for-review${query}`)).body;
  const trialBalance = async () => {
    const report = (
      await server.request(
        'GET',
        `${books.base}/reports/trial-balance?startDate=2026-01-01&endDate=2026-12-31`,
      )
    ).body.report;
    const rows = new Map<string, number>();
    for (const row of report.rows)
      rows.set(row.accountName, Math.round((row.debit - row.credit) * 100));
    expect(report.totals.debit).toBeCloseTo(report.totals.credit, 2);
    return rows;
  };
  const get = async (id: string) =>
    (await server.request('GET', `/sandbox/v1/transactions/${id}`)).body.transaction;

  it('a transaction arrives waiting with its bank account, reference and version; GET answers it, 404 for an unknown id', async () => {
    const [arrived] = await push(checking.id, [
      {
        date: '2026-01-05',
        amount: -89.99,
        description: 'VERIZON WIRELESS PAYMENT',
        externalId: 'ref-1',
      },
    ]);
    expect(arrived).toMatchObject({
      entityId: books.entityId,
      bankAccount: { id: checking.chartAccountId, name: 'Chase Checking' },
      reference: 'ref-1',
      status: 'uncategorized',
      category: null,
      decidedBy: null,
      decidedAt: null,
      version: 0,
    });
    expect(await get(arrived.id)).toEqual(arrived);
    const missing = await server.request('GET', `/sandbox/v1/transactions/${MISSING_ID}`);
    expect(missing.status).toBe(404);
    expect(errorOf(missing)).toMatch(/bank transaction not found/);
  });

  it('categorized to an account: what left Uncategorized Expense lands on the account, the trial balance ties; recategorized replaces, not adds', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-05', amount: -89.99, description: 'VERIZON WIRELESS PAYMENT' },
    ]);
    expect((await trialBalance()).get('Uncategorized Expense')).toBe(8999);
    const first = await decide(arrived, { kind: 'account', accountId: office.id, memo: 'phone' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.transaction).toMatchObject({
      status: 'categorized',
      accountId: office.id,
      category: {
        kind: 'account',
        account: { id: office.id, name: 'Office Supplies' },
        memo: 'phone',
      },
      decidedBy: 'person',
      version: 1,
    });
    expect(first.body.transaction.decidedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    let tb = await trialBalance();
    expect(tb.get('Uncategorized Expense') ?? 0).toBe(0);
    expect(tb.get('Office Supplies')).toBe(8999);
    const again = await decide(first.body.transaction, {
      kind: 'account',
      accountId: telephone.id,
      decidedBy: 'suggestion',
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.transaction).toMatchObject({ decidedBy: 'suggestion', version: 2 });
    tb = await trialBalance();
    expect(tb.get('Office Supplies') ?? 0).toBe(0);
    expect(tb.get('Telephone')).toBe(8999);
    expect(tb.get('Chase Checking')).toBe(-8999);
  });

  it('a decision made on an old version is refused (409) and changes nothing: of two at once, one wins', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-05', amount: -20, description: 'STAPLES 0042' },
    ]);
    const [a, b] = await Promise.all([
      decide(arrived, { kind: 'account', accountId: office.id }),
      decide(arrived, { kind: 'account', accountId: meals.id }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(errorOf(loser)).toMatch(/was decided meanwhile .*nothing was changed/);
    const tb = await trialBalance();
    expect((tb.get('Office Supplies') ?? 0) + (tb.get('Meals') ?? 0)).toBe(2000);
    expect(tb.get('Chase Checking')).toBe(-2000);
  });

  it('a split: parts that add up post each to its account; parts that do not are refused naming the difference', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-06', amount: -150, description: 'COSTCO WHOLESALE #123' },
    ]);
    const wrong = await decide(arrived, {
      kind: 'split',
      splits: [
        { accountId: office.id, amount: 100 },
        { accountId: meals.id, amount: 40 },
      ],
    });
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong)).toBe(
      "splits: the parts add up to 140.00, not the transaction's 150.00: a difference of 10.00",
    );
    const split = await decide(arrived, {
      kind: 'split',
      splits: [
        { accountId: office.id, amount: 110, memo: 'paper' },
        { accountId: meals.id, amount: 40 },
      ],
    });
    expect(split.status, split.text).toBe(200);
    expect(split.body.transaction.category).toEqual({
      kind: 'split',
      splits: [
        {
          account: { id: office.id, code: office.code, name: 'Office Supplies' },
          amount: 110,
          memo: 'paper',
        },
        { account: { id: meals.id, code: meals.code, name: 'Meals' }, amount: 40, memo: null },
      ],
    });
    const tb = await trialBalance();
    expect(tb.get('Office Supplies')).toBe(11000);
    expect(tb.get('Meals')).toBe(4000);
  });

  it('a deposit split with a fee taken from it: the fee part is negative and posts on the bank side', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-07', amount: 970, description: 'STRIPE TRANSFER' },
    ]);
    const split = await decide(arrived, {
      kind: 'split',
      splits: [
        { accountId: sales.id, amount: 1000 },
        { accountId: fees.id, amount: -30 },
      ],
    });
    expect(split.status, split.text).toBe(200);
    const tb = await trialBalance();
    expect(tb.get('Sales')).toBe(-100000);
    expect(tb.get('Bank Fees')).toBe(3000);
    expect(tb.get('Chase Checking')).toBe(97000);
  });

  it('a transfer between checking and the card posts once and both leave the queue; sent back, both wait again', async () => {
    const [out] = await push(checking.id, [
      { date: '2026-01-15', amount: -500, description: 'PAYMENT TO CHASE CARD' },
    ]);
    const [into] = await push(card.id, [
      { date: '2026-01-16', amount: 500, description: 'PAYMENT THANK YOU' },
    ]);
    const suggestions = (await queue('?suggest=true')).data;
    expect(suggestions.find((t: any) => t.id === out.id).suggestion).toMatchObject({
      kind: 'transfer',
      accountId: card.chartAccountId,
      transactionId: into.id,
    });
    const transfer = await decide(out, { kind: 'transfer' });
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body.transaction).toMatchObject({
      decidedBy: 'transfer',
      category: { kind: 'transfer', account: { id: card.chartAccountId }, transactionId: into.id },
    });
    expect(transfer.body.related).toHaveLength(1);
    expect(transfer.body.related[0]).toMatchObject({
      id: into.id,
      status: 'categorized',
      decidedBy: 'transfer',
      category: {
        kind: 'transfer',
        account: { id: checking.chartAccountId },
        transactionId: out.id,
      },
    });
    expect((await queue()).total).toBe(0);
    let tb = await trialBalance();
    expect(tb.get('Chase Checking')).toBe(-50000);
    expect(tb.get('Chase Sapphire')).toBe(50000);
    expect(tb.get('Uncategorized Income') ?? 0).toBe(0);
    expect(tb.get('Uncategorized Expense') ?? 0).toBe(0);
    const back = await decide(transfer.body.transaction, { kind: 'uncategorize' });
    expect(back.status, back.text).toBe(200);
    expect(back.body.related.map((t: any) => t.status)).toEqual(['uncategorized']);
    expect((await queue()).total).toBe(2);
    tb = await trialBalance();
    expect(tb.get('Uncategorized Income')).toBe(-50000);
    expect(tb.get('Uncategorized Expense')).toBe(50000);
  });

  it('a transfer to a card account whose side has not arrived: the side joins when it arrives, posting nothing more', async () => {
    const [out] = await push(checking.id, [
      { date: '2026-02-01', amount: -300, description: 'ONLINE TRANSFER TO CARD' },
    ]);
    const transfer = await decide(out, { kind: 'transfer', accountId: card.chartAccountId });
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body.transaction.category).toMatchObject({
      kind: 'transfer',
      transactionId: null,
    });
    const [into] = await push(card.id, [
      { date: '2026-02-03', amount: 300, description: 'PAYMENT THANK YOU' },
    ]);
    expect(into).toMatchObject({ status: 'categorized', decidedBy: 'transfer' });
    expect((await get(out.id)).category.transactionId).toBe(into.id);
    const tb = await trialBalance();
    expect(tb.get('Chase Sapphire')).toBe(30000);
    expect(tb.get('Chase Checking')).toBe(-30000);
  });

  it("a transfer's other side refused: an income account, the same bank account, an amount not opposite", async () => {
    const [out] = await push(checking.id, [
      { date: '2026-02-01', amount: -300, description: 'XFER' },
    ]);
    const [other] = await push(checking.id, [
      { date: '2026-02-01', amount: 300, description: 'XFER BACK' },
    ]);
    const income = await decide(out, { kind: 'transfer', accountId: sales.id });
    expect(income.status).toBe(400);
    expect(errorOf(income)).toBe(
      `account ${sales.code} "Sales" is an Income account, not a bank or card account: a transfer's other side must be one`,
    );
    const same = await decide(out, { kind: 'transfer', otherTransactionId: other.id });
    expect(errorOf(same)).toMatch(/is on the same bank account/);
    const [card1] = await push(card.id, [
      { date: '2026-02-02', amount: 299, description: 'PAYMENT' },
    ]);
    const notOpposite = await decide(out, { kind: 'transfer', otherTransactionId: card1.id });
    expect(errorOf(notOpposite)).toMatch(/is 299\.00, not the opposite of this -300\.00/);
    const none = await decide(out, { kind: 'transfer' });
    expect(errorOf(none)).toMatch(/no transaction of the opposite 300\.00 waits/);
    expect((await get(out.id)).version).toBe(0);
  });

  it('a match: a journal entry already posts the payroll; the bank line posts nothing more and the bank account is counted once', async () => {
    const entry = await books.post({
      date: '2026-01-15',
      memo: 'January payroll',
      lines: [
        { accountId: payroll.id, debitAmount: 4250 },
        { accountId: checking.chartAccountId, creditAmount: 4250 },
      ],
    });
    expect(entry.status, entry.text).toBe(201);
    const entryId = entry.body.journalEntry.id;
    // The January statement's line (the statement covers the month: the entry is inside it).
    const response = await server.request(
      'POST',
      `/sandbox/v1/financial-accounts/${checking.id}/transactions`,
      {
        body: {
          transactions: [{ date: '2026-01-16', amount: -4250, description: 'GUSTO PAYROLL 0116' }],
          period: { startDate: '2026-01-01', endDate: '2026-01-31' },
        },
      },
    );
    const [line] = response.body.data;
    const suggested = (await queue('?suggest=true')).data[0].suggestion;
    expect(suggested).toMatchObject({ kind: 'match', entryId, accountId: payroll.id });
    expect(suggested.confidence).toBeGreaterThanOrEqual(0.95);
    expect(suggested.reason).toMatch(
      /journal entry of 2026-01-15 "January payroll" already posts this 4,250\.00 out of/,
    );
    expect((await trialBalance()).get('Chase Checking')).toBe(-850000);
    const matched = await decide(line, { kind: 'match', entryId });
    expect(matched.status, matched.text).toBe(200);
    expect(matched.body.transaction).toMatchObject({
      decidedBy: 'match',
      category: { kind: 'match', entryId, entryDate: '2026-01-15', entryMemo: 'January payroll' },
    });
    const tb = await trialBalance();
    expect(tb.get('Chase Checking')).toBe(-425000);
    expect(tb.get('Payroll')).toBe(425000);
    expect(tb.get('Uncategorized Expense') ?? 0).toBe(0);
    // The accrual ledger, which the entry is not on, keeps the line, posted as the entry posts.
    await server.request('POST', `/sandbox/v1/entities/${books.entityId}/ledgers/accrual/open`);
    const accrual = (
      await server.request(
        'GET',
        `${books.base}/reports/trial-balance?startDate=2026-01-01&endDate=2026-12-31&ledgerBasis=accrual`,
      )
    ).body.report.rows;
    expect(accrual.find((r: any) => r.accountName === 'Payroll')).toMatchObject({ debit: 4250 });
    expect(accrual.find((r: any) => r.accountName === 'Chase Checking')).toMatchObject({
      credit: 4250,
    });
    // The entry, deleted: the line waits again, posted to Uncategorized.
    const deleted = await server.request('DELETE', `${books.base}/journal-entries/${entryId}`);
    expect(deleted.status).toBe(200);
    expect(await get(line.id)).toMatchObject({ status: 'uncategorized', category: null });
    expect((await trialBalance()).get('Uncategorized Expense')).toBe(425000);
  });

  it('a match refused: an entry that does not post the amount on the bank account; an entry matched already (409)', async () => {
    const entry = await books.post(
      books.entry('2026-01-15', payroll.id, checking.chartAccountId, 100),
    );
    const entryId = entry.body.journalEntry.id;
    const [a, b] = await push(checking.id, [
      { date: '2026-01-15', amount: -100, description: 'PAYROLL A' },
      { date: '2026-01-15', amount: -200, description: 'PAYROLL B' },
    ]);
    const wrongAmount = await decide(b, { kind: 'match', entryId });
    expect(wrongAmount.status).toBe(400);
    expect(errorOf(wrongAmount)).toMatch(
      /does not post 200\.00 out of .*"Chase Checking": it cannot stand for this bank line/,
    );
    expect((await decide(a, { kind: 'match', entryId })).status).toBe(200);
    // Another day: the same amount and text the same day would be held as a possible duplicate.
    const [c] = await push(checking.id, [
      { date: '2026-01-20', amount: -100, description: 'PAYROLL C' },
    ]);
    const twice = await decide(c, { kind: 'match', entryId });
    expect(twice.status).toBe(409);
    expect(errorOf(twice)).toBe(
      `journal entry ${entryId} is already matched by transaction ${a.id}`,
    );
  });

  it('a line already there is skipped whatever layout brings it; one alike but not certain is held, posted only when a person says', async () => {
    const november = [
      { date: '2026-11-03', amount: -1200, description: 'RENT HARBOUR PROPERTIES' },
      { date: '2026-11-10', amount: 845.2, description: 'CARD SALES SUMUP' },
    ];
    const first = await push(checking.id, november);
    expect(first).toHaveLength(2);
    // The same month re-exported (other columns, other case): nothing comes in.
    expect(
      await push(
        checking.id,
        november.map((t) => ({ ...t, description: t.description.toLowerCase() })),
      ),
    ).toEqual([]);
    // A file of the same days dating the rent a day later with another text: held.
    const response = await server.request(
      'POST',
      `/sandbox/v1/financial-accounts/${checking.id}/transactions`,
      {
        body: {
          transactions: [
            { date: '2026-11-04', amount: -1200, description: 'Harbour Properties Ltd' },
          ],
          period: { startDate: '2026-11-01', endDate: '2026-11-30' },
        },
      },
    );
    expect(response.status, response.text).toBe(201);
    const [held] = response.body.data;
    expect(held).toMatchObject({
      status: 'possible-duplicate',
      category: null,
      duplicateOf: {
        id: first[0].id,
        date: '2026-11-03',
        amount: -1200,
        description: 'RENT HARBOUR PROPERTIES',
      },
    });
    // Not posted, not in the queue, not taken by a rule; listed by its status.
    expect((await trialBalance()).get('Chase Checking')).toBe(-1200_00 + 845_20);
    expect((await queue()).data.map((t: any) => t.id)).not.toContain(held.id);
    const listed = await server.request(
      'GET',
      `/sandbox/v1/workspaces/${books.workspaceId}/transactions?status=possible-duplicate`,
    );
    expect(listed.body.data.map((t: any) => t.id)).toEqual([held.id]);
    // Another decision is refused naming the line it may repeat.
    const refused = await decide(held, { kind: 'account', accountId: office.id });
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toBe(
      `transaction ${held.id} is held as a possible duplicate of 2026-11-03 -1,200.00 RENT HARBOUR PROPERTIES (${first[0].id}): say it is not one (kind not-duplicate), or exclude it`,
    );
    // Not a duplicate: it comes in as any line arrives (waiting, posted to Uncategorized).
    const released = await decide(held, { kind: 'not-duplicate' });
    expect(released.status, released.text).toBe(200);
    expect(released.body.transaction).toMatchObject({ status: 'uncategorized', version: 1 });
    expect(released.body.transaction.duplicateOf).toBeUndefined();
    expect((await trialBalance()).get('Chase Checking')).toBe(-2400_00 + 845_20);
    const again = await decide(released.body.transaction, { kind: 'not-duplicate' });
    expect(again.status).toBe(400);
    expect(errorOf(again)).toBe(
      `transaction ${held.id} is not held as a possible duplicate (it is waiting)`,
    );
  });

  it('two alike lines of one file sent in two requests are two lines; the same file sent again brings neither', async () => {
    // A day's two coffees, the 1,000th and 1,001st lines of a file, in two requests of one import.
    const coffee = { date: '2026-11-20', amount: -3.5, description: 'STARBUCKS' };
    const send = (importId: string) =>
      server.request('POST', `/sandbox/v1/financial-accounts/${checking.id}/transactions`, {
        body: { transactions: [coffee], importId },
      });
    for (const response of [await send('file-1'), await send('file-1')])
      expect(response.body.data).toHaveLength(1);
    // Another import of the same file: both already there.
    expect((await send('file-2')).body.data).toEqual([]);
    expect((await send('file-2')).body.data).toEqual([]);
    expect((await trialBalance()).get('Chase Checking')).toBe(-7_00);
  });

  it('a held line excluded stays out of the books; a file bringing it again brings nothing', async () => {
    await push(checking.id, [{ date: '2026-11-17', amount: -96.4, description: 'BRITISH GAS' }]);
    const [held] = await push(checking.id, [
      { date: '2026-11-17', amount: -96.4, description: 'DD 0042871' },
    ]);
    expect(held.status).toBe('possible-duplicate');
    const excluded = await decide(held, { kind: 'exclude' });
    expect(excluded.body.transaction.status).toBe('excluded');
    expect((await trialBalance()).get('Chase Checking')).toBe(-96_40);
    expect(
      await push(checking.id, [
        { date: '2026-11-17', amount: -96.4, description: 'BRITISH GAS' },
        { date: '2026-11-17', amount: -96.4, description: 'DD 0042871' },
      ]),
    ).toEqual([]);
  });

  it('reconciliations recorded: an entry the bank cleared, or one of a reconciled statement, is no match for a new line', async () => {
    const entry = await books.post({
      date: '2026-09-25',
      memo: 'PAYMENT TO VISA',
      lines: [
        { accountId: office.id, debitAmount: 300 },
        { accountId: checking.chartAccountId, creditAmount: 300 },
      ],
    });
    const entryId = entry.body.journalEntry.id;
    const path = `/sandbox/v1/entities/${books.entityId}/reconciliations`;
    const body = {
      accountId: checking.chartAccountId,
      startDate: '2026-09-01',
      endDate: '2026-09-30',
      openingBalance: 1000,
      closingBalance: 700,
      entryIds: [entryId],
    };
    const recorded = await server.request('POST', path, { body });
    expect(recorded.status, recorded.text).toBe(201);
    expect(recorded.body.reconciliation).toMatchObject({
      accountId: checking.chartAccountId,
      startDate: '2026-09-01',
      endDate: '2026-09-30',
      openingBalance: 1000,
      closingBalance: 700,
      entries: 1,
    });
    const listed = await server.request('GET', `${path}?accountId=${checking.chartAccountId}`);
    expect(listed.body.data.map((r: any) => r.id)).toEqual([recorded.body.reconciliation.id]);
    // Refused: an income account, days in the wrong order, an entity not there.
    const income = await server.request('POST', path, { body: { ...body, accountId: sales.id } });
    expect(income.status).toBe(400);
    expect(errorOf(income)).toMatch(/is Income: a statement is of a bank or card account$/);
    const backwards = await server.request('POST', path, {
      body: { ...body, startDate: '2026-10-01' },
    });
    expect(backwards.status).toBe(400);
    expect(
      (await server.request('POST', `/sandbox/v1/entities/${MISSING_ID}/reconciliations`, { body }))
        .status,
    ).toBe(404);
    // October's statement: a vendor never seen, 300.00 on 2 October. The cleared entry of 25
    // September is no candidate (it was the suggestion, at 0.9, that lost the expense).
    await server.request('POST', `/sandbox/v1/financial-accounts/${checking.id}/transactions`, {
      body: {
        transactions: [{ date: '2026-10-02', amount: -300, description: 'ACME ANNUAL CONFERENCE' }],
        period: { startDate: '2026-10-01', endDate: '2026-10-31' },
      },
    });
    const [waiting] = (await queue('?suggest=true')).data;
    expect(waiting.suggestion?.kind).not.toBe('match');
  });

  it('excluded: it leaves the books and the queue; uncategorized, it comes back', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-09', amount: -12, description: 'DUPLICATE' },
    ]);
    const excluded = await decide(arrived, { kind: 'exclude' });
    expect(excluded.body.transaction).toMatchObject({ status: 'excluded', decidedBy: 'person' });
    expect((await trialBalance()).get('Chase Checking') ?? 0).toBe(0);
    expect((await queue()).total).toBe(0);
    const back = await decide(excluded.body.transaction, { kind: 'uncategorize' });
    expect(back.body.transaction).toMatchObject({
      status: 'uncategorized',
      decidedBy: null,
      version: 2,
    });
    expect((await trialBalance()).get('Chase Checking')).toBe(-1200);
  });

  it('refused with a clear error and nothing changed: another entity’s account, an archived account, the lock date (409), an unknown transaction (404)', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-09', amount: -12, description: 'X' },
    ]);
    const other = await createEntity(server);
    const foreign = await other.account('Foreign', 'Operating Expenses');
    const foreignAnswer = await decide(arrived, { kind: 'account', accountId: foreign.id });
    expect(foreignAnswer.status).toBe(400);
    expect(errorOf(foreignAnswer)).toMatch(/is not an account of entity "Main Street Bakery"/);
    await server.request('POST', `${books.base}/chart-of-accounts/${meals.id}/disable`);
    const archived = await decide(arrived, { kind: 'account', accountId: meals.id });
    expect(errorOf(archived)).toBe(`accountId: account ${meals.code} "Meals" is archived`);
    const bad = await decide(arrived, { kind: 'account' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toBe('accountId is required to categorize to an account');
    const noVersion = await server.request(
      'POST',
      `/sandbox/v1/transactions/${arrived.id}/decision`,
      {
        body: { kind: 'exclude' },
      },
    );
    expect(noVersion.status).toBe(400);
    await server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, {
      body: { lockDate: '2026-01-31' },
    });
    const locked = await decide(arrived, { kind: 'account', accountId: office.id });
    expect(locked.status).toBe(409);
    expect(errorOf(locked)).toBe(
      `transaction ${arrived.id} of 2026-01-09 is on or before the lock date 2026-01-31: the books are locked through 2026-01-31, nothing was changed`,
    );
    const unknown = await decide({ id: MISSING_ID, version: 0 }, { kind: 'exclude' });
    expect(unknown.status).toBe(404);
    expect((await get(arrived.id)).version).toBe(0);
  });

  it('a decision retried with the same Idempotency-Key is replayed, not made twice', async () => {
    const [arrived] = await push(checking.id, [
      { date: '2026-01-09', amount: -12, description: 'X' },
    ]);
    const headers = { 'Idempotency-Key': `decision-${arrived.id}` };
    const first = await decide(arrived, { kind: 'account', accountId: office.id }, headers);
    const second = await decide(arrived, { kind: 'account', accountId: office.id }, headers);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await trialBalance()).get('Office Supplies')).toBe(1200);
  });

  it('bulk decisions: each decided or refused on its own', async () => {
    const [a, b] = await push(checking.id, [
      { date: '2026-01-09', amount: -12, description: 'A' },
      { date: '2026-01-09', amount: -13, description: 'B' },
    ]);
    const answer = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/transaction-decisions`,
      {
        body: {
          decisions: [
            {
              transactionId: a.id,
              version: 0,
              kind: 'account',
              accountId: office.id,
              decidedBy: 'suggestion',
            },
            { transactionId: b.id, version: 7, kind: 'account', accountId: office.id },
          ],
        },
      },
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data[0]).toMatchObject({
      transactionId: a.id,
      status: 200,
      transaction: { decidedBy: 'suggestion' },
    });
    expect(answer.body.data[1]).toMatchObject({ transactionId: b.id, status: 409 });
    expect(answer.body.data[1].message).toMatch(/was decided meanwhile/);
    expect((await trialBalance()).get('Office Supplies')).toBe(1200);
    // A transfer in bulk decides the transaction named, with the other side it names.
    const [out] = await push(checking.id, [
      { date: '2026-01-10', amount: -70, description: 'TO CARD' },
    ]);
    const [into] = await push(card.id, [
      { date: '2026-01-10', amount: 70, description: 'FROM CHECKING' },
    ]);
    const transfer = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/transaction-decisions`,
      {
        body: {
          decisions: [
            { transactionId: out.id, version: 0, kind: 'transfer', otherTransactionId: into.id },
          ],
        },
      },
    );
    expect(transfer.body.data[0]).toMatchObject({
      transactionId: out.id,
      status: 200,
      transaction: { id: out.id, category: { kind: 'transfer', transactionId: into.id } },
      related: [{ id: into.id }],
    });
  });

  it('the list narrows by status, days, account, text and reference', async () => {
    await push(checking.id, [
      { date: '2026-01-02', amount: -10, description: 'Blue Bottle Coffee', externalId: 'R-1' },
      { date: '2026-01-20', amount: -11, description: 'Staples 100%_off', externalId: 'R-2' },
    ]);
    await push(card.id, [{ date: '2026-01-10', amount: -12, description: 'Blue Bottle Coffee' }]);
    const list = async (query: string) =>
      (
        await server.request(
          'GET',
          `/sandbox/v1/workspaces/${books.workspaceId}/transactions?${query}`,
        )
      ).body;
    expect((await list('search=bottle')).pagination.total).toBe(2);
    expect((await list('search=100%25_')).data.map((t: any) => t.reference)).toEqual(['R-2']);
    expect((await list(`accountId=${card.chartAccountId}`)).pagination.total).toBe(1);
    expect((await list(`accountId=${checking.id}`)).pagination.total).toBe(2);
    expect((await list('startDate=2026-01-05&endDate=2026-01-15')).pagination.total).toBe(1);
    expect((await list('reference=R-1')).data[0].description).toBe('Blue Bottle Coffee');
    expect((await list('status=excluded')).pagination.total).toBe(0);
    expect((await list('startDate=2026-02-01&endDate=2026-01-01')).pagination).toBeUndefined();
  });

  it('rules applied to what waits: each rule says what it took; a dry run changes nothing', async () => {
    await push(checking.id, [
      { date: '2026-01-05', amount: -89.99, description: 'VERIZON WIRELESS' },
      { date: '2026-02-05', amount: -89.99, description: 'VERIZON WIRELESS' },
      { date: '2026-02-06', amount: -5, description: 'BLUE BOTTLE' },
    ]);
    const rule = await server.request(
      'POST',
      `/platform/v1/workspaces/${books.workspaceId}/transaction-rules`,
      {
        body: {
          conditions: [{ conditionType: 'description_contains', value: ['verizon'] }],
          actions: [{ actionType: 'account_id', value: telephone.id }],
        },
      },
    );
    const apply = (body: unknown) =>
      server.request(
        'POST',
        `/sandbox/v1/workspaces/${books.workspaceId}/transaction-rules/apply`,
        { body },
      );
    const dry = await apply({ dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ categorized: 2, waiting: 3, dryRun: true });
    expect(dry.body.rules).toEqual([
      expect.objectContaining({ ruleId: rule.body.rule.id, categorized: 2 }),
    ]);
    expect((await queue()).total).toBe(3);
    const applied = await apply({});
    expect(applied.body).toMatchObject({ categorized: 2, dryRun: false });
    const waiting = (await queue()).data;
    expect(waiting.map((t: any) => t.description)).toEqual(['BLUE BOTTLE']);
    expect((await trialBalance()).get('Telephone')).toBe(17998);
    const taken = await get(applied.body.rules[0].transactionIds[0]);
    expect(taken).toMatchObject({ decidedBy: 'rule', ruleId: rule.body.rule.id });
  });

  it('suggestions learned from the entity’s own decisions, with a reason a bookkeeper checks in a second', async () => {
    const history = Array.from({ length: 15 }, (_, i) => ({
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-05`,
      amount: -89.99,
      description: `VERIZON WIRELESS PAYMENT ${1000 + i}`,
      externalId: `v-${i}`,
    }));
    const arrived = await push(checking.id, history);
    for (const [i, t] of arrived.entries())
      await decide(t, { kind: 'account', accountId: i === 3 ? office.id : telephone.id });
    const [fresh] = await push(checking.id, [
      { date: '2026-01-05', amount: -89.99, description: 'VERIZON WIRELESS PAYMENT 2001' },
    ]);
    const { data } = await queue('?suggest=true');
    const suggestion = data.find((t: any) => t.id === fresh.id).suggestion;
    expect(suggestion).toMatchObject({
      kind: 'account',
      accountId: telephone.id,
      account: 'Telephone',
    });
    expect(suggestion.reason).toBe(
      `14 of 15 earlier VERIZON WIRELESS PAYMENT of 89.99 went to ${telephone.code} Telephone`,
    );
    expect(suggestion.confidence).toBeGreaterThan(0.5);
    expect(suggestion.confidence).toBeLessThanOrEqual(1);
  });

  it("a payee new to the client: what the firm's other clients decided, on the account of the same name, with less confidence", async () => {
    const other = await createEntity(server, { name: 'Other client' });
    const software = await other.account('Software Subscriptions', 'Operating Expenses');
    const otherFeed = await server.request(
      'POST',
      `/sandbox/v1/entities/${other.entityId}/bank-feed-connections`,
      {
        body: { bankName: 'BofA', accounts: [{ name: 'BofA Checking', kind: 'bank' }] },
      },
    );
    const [otherChecking] = otherFeed.body.connection.financialAccounts;
    const theirs = await push(otherChecking.id, [
      { date: '2025-06-01', amount: -8, description: 'NOTION LABS INC' },
      { date: '2025-07-01', amount: -8, description: 'NOTION LABS INC' },
      { date: '2025-08-01', amount: -10, description: 'NOTION LABS INC' },
    ]);
    for (const t of theirs) await decide(t, { kind: 'account', accountId: software.id });
    const mine = await books.account('Software Subscriptions', 'Operating Expenses');
    await push(checking.id, [{ date: '2026-01-05', amount: -8, description: 'NOTION LABS INC' }]);
    const suggestion = (await queue('?suggest=true')).data[0].suggestion;
    expect(suggestion).toMatchObject({ kind: 'account', accountId: mine.id });
    expect(suggestion.reason).toBe(
      "no earlier NOTION LABS for this client; the firm's other clients sent 3 of their 3 lines to Software Subscriptions (1 client)",
    );
    expect(suggestion.confidence).toBeLessThan(0.95);
  });

  it("a payee new to the client: another client's migrated ledger counts too (its entries on the bank, by their text)", async () => {
    const other = await createEntity(server, { name: 'Migrated client' });
    const bank = await other.account('Business Checking', 'Cash');
    const phone = await other.account('Telephone', 'Operating Expenses');
    const meals = await other.account('Meals', 'Operating Expenses');
    for (const [i, memo] of [
      'COMCAST BUSINESS 0412',
      'COMCAST BUSINESS 0512',
      'COMCAST BUSINESS 0612',
    ].entries()) {
      const entry = await other.post({
        date: `2025-0${4 + i}-12`,
        memo,
        lines: [
          { accountId: phone.id, debitAmount: 80 },
          { accountId: bank.id, creditAmount: 80 },
        ],
      });
      expect(entry.status, entry.text).toBe(201);
    }
    // A line's own text says more than its entry's memo; a split goes by its largest line.
    const split = await other.post({
      date: '2025-07-01',
      memo: 'July',
      lines: [
        { accountId: phone.id, debitAmount: 70 },
        { accountId: meals.id, debitAmount: 10 },
        { accountId: bank.id, creditAmount: 80, description: 'COMCAST BUSINESS 0712' },
      ],
    });
    expect(split.status, split.text).toBe(201);
    await push(checking.id, [
      { date: '2026-01-12', amount: -80, description: 'COMCAST BUSINESS 0112' },
    ]);
    const suggestion = (await queue('?suggest=true')).data[0].suggestion;
    expect(suggestion).toMatchObject({ kind: 'account', accountId: telephone.id });
    expect(suggestion.reason).toBe(
      "no earlier COMCAST BUSINESS for this client; the firm's other clients sent 4 of their 4 lines to Telephone (1 client)",
    );
  });

  it('the morning summary: per entity what waits, the oldest, money in and out, the confident ones', async () => {
    await push(checking.id, [
      { date: '2026-01-03', amount: -40, description: 'A' },
      { date: '2026-01-04', amount: 100, description: 'B' },
    ]);
    const summary = await server.request(
      'GET',
      `/sandbox/v1/workspaces/${books.workspaceId}/for-review/summary`,
    );
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body.data).toEqual([
      {
        workspaceId: books.workspaceId,
        entityId: books.entityId,
        entityName: 'Main Street Bakery',
        waiting: 2,
        oldest: '2026-01-03',
        moneyIn: 100,
        moneyOut: 40,
        confident: 0,
      },
    ]);
    const missing = await server.request(
      'GET',
      `/sandbox/v1/workspaces/${MISSING_ID}/for-review/summary`,
    );
    expect(missing.status).toBe(404);
  });

  it('the for-review queue: oldest first, narrowed, 404 for an unknown entity, 400 for days in the wrong order', async () => {
    await push(checking.id, [
      { date: '2026-01-20', amount: -1, description: 'LATER' },
      { date: '2026-01-02', amount: -2, description: 'EARLIER' },
    ]);
    expect((await queue()).data.map((t: any) => t.description)).toEqual(['EARLIER', 'LATER']);
    expect((await queue('?search=later')).total).toBe(1);
    expect((await queue('?startDate=2026-01-10')).total).toBe(1);
    const missing = await server.request('GET', `/sandbox/v1/entities/${MISSING_ID}/for-review`);
    expect(missing.status).toBe(404);
    const wrong = await server.request(
      'GET',
      `/sandbox/v1/entities/${books.entityId}/for-review?startDate=2026-02-01&endDate=2026-01-01`,
    );
    expect(wrong.status).toBe(400);
  });
});
