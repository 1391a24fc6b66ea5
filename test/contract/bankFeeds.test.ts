import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import {
  createOrganization,
  errorOf,
  startServer,
  type TestServer,
  MISSING_ID,
} from '../helpers/server.js';

describe('bank feeds and categorization', () => {
  let server: TestServer;
  let books: TestEntity;
  let checking: { id: string; chartAccountId: string };
  let card: { id: string; chartAccountId: string };
  let connectionId: string;
  let travel: any;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    travel = await books.account('Travel', 'Operating Expenses');
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
    expect(connection.status).toBe(201);
    connectionId = connection.body.connection.id;
    [checking, card] = connection.body.connection.financialAccounts;
  });

  const push = (financialAccountId: string, transactions: unknown[]) =>
    server.request('POST', `/sandbox/v1/financial-accounts/${financialAccountId}/transactions`, {
      body: { transactions },
    });
  const rules = () => `/platform/v1/workspaces/${books.workspaceId}/transaction-rules`;
  const uberRule = () =>
    server.request('POST', rules(), {
      body: {
        conditions: [{ conditionType: 'description_contains', value: ['uber'] }],
        actions: [{ actionType: 'account_id', value: travel.id }],
      },
    });
  const report = async (kind: string, query = 'startDate=2026-01-01&endDate=2026-12-31') =>
    (await server.request('GET', `${books.base}/reports/${kind}?${query}`)).body.report;

  it('connects: each financial account gets a Cash or Credit Cards chart account linked to it', async () => {
    const chart = (await server.request('GET', `${books.base}/chart-of-accounts`)).body.data;
    expect(chart.find((a: any) => a.id === checking.chartAccountId)).toMatchObject({
      name: 'Chase Checking',
      type: 'Cash',
      financialAccountId: checking.id,
    });
    expect(chart.find((a: any) => a.id === card.chartAccountId)).toMatchObject({
      name: 'Chase Sapphire',
      type: 'Credit Cards',
      financialAccountId: card.id,
    });
  });

  it('a rule categorizes a pushed transaction; it posts on both ledgers, visible in the trial balance and general ledger', async () => {
    await uberRule();
    await server.request('POST', `/sandbox/v1/entities/${books.entityId}/ledgers/accrual/open`);
    const pushed = await push(checking.id, [
      { date: '2026-03-02', amount: -24.5, description: 'UBER *TRIP 8XJ2', externalId: 'tx-1' },
    ]);
    expect(pushed.status).toBe(201);
    const [transaction] = pushed.body.data;
    expect(transaction).toMatchObject({
      financialAccountId: checking.id,
      date: '2026-03-02',
      amount: -24.5,
      accountId: travel.id,
      status: 'categorized',
    });
    expect(transaction.ruleId).toMatch(/^[0-9a-f-]{36}$/);

    for (const ledgerBasis of ['cash', 'accrual']) {
      const tb = await report(
        'trial-balance',
        `startDate=2026-01-01&endDate=2026-12-31&ledgerBasis=${ledgerBasis}`,
      );
      expect(tb.rows.map((r: any) => [r.accountName, r.debit, r.credit])).toEqual([
        ['Chase Checking', 0, 24.5],
        ['Travel', 24.5, 0],
      ]);
    }
    const gl = await report('general-ledger');
    const travelLedger = gl.accounts.find((a: any) => a.accountName === 'Travel');
    expect(travelLedger.entries).toEqual([
      expect.objectContaining({
        debitAmount: 24.5,
        creditAmount: null,
        balance: 24.5,
        description: 'UBER *TRIP 8XJ2',
        counterpartyName: 'UBER *TRIP 8XJ2',
        journalEntryId: transaction.id,
        sourceType: 'transaction',
      }),
    ]);
  });

  it('refuses to delete the chart account of a bank feed (409, not a 500), and keeps it', async () => {
    const deleted = await server.request(
      'DELETE',
      `${books.base}/chart-of-accounts/${card.chartAccountId}`,
    );
    expect(errorOf(deleted)).toEqual({
      status: 409,
      message: 'account 2000 Chase Sapphire is linked to a bank feed; archive it instead',
      traceMatches: true,
    });
    const kept = await server.request(
      'GET',
      `${books.base}/chart-of-accounts/${card.chartAccountId}`,
    );
    expect(kept.status).toBe(200);
  });

  it("applies the user's rules before migration-generated ones, whatever their age", async () => {
    const generatedTarget = await books.account('Generated Travel', 'Operating Expenses');
    // Generated rules come from the accounting migration; here one is stored as it would be.
    await server.platform.engine.store.transactionRules.insert(
      books.workspaceId,
      {
        id: '00000000-0000-4000-8000-00000000abcd',
        conditions: [{ conditionType: 'description_contains', value: ['uber'] }],
        actions: [{ actionType: 'account_id', value: generatedTarget.id }],
        note: null,
        isDisabled: false,
        updatedAt: new Date().toISOString(),
      },
      { ruleGroup: 'migration', entityId: books.entityId },
    );
    const onlyGenerated = await push(checking.id, [
      { date: '2026-03-01', amount: -5, description: 'UBER one' },
    ]);
    expect(onlyGenerated.body.data[0]).toMatchObject({
      accountId: generatedTarget.id,
      ruleId: '00000000-0000-4000-8000-00000000abcd',
    });
    await uberRule();
    const userFirst = await push(checking.id, [
      { date: '2026-03-02', amount: -5, description: 'UBER two' },
    ]);
    expect(userFirst.body.data[0].accountId).toBe(travel.id);
    // Generated rules are not listed by the platform API.
    expect((await server.request('GET', rules())).body.data).toHaveLength(1);
  });

  it('with no matching rule, money in and out goes to Uncategorized Income / Expense (created on demand)', async () => {
    const pushed = await push(checking.id, [
      { date: '2026-03-03', amount: 1500, description: 'ACME PAYROLL' },
      { date: '2026-03-04', amount: -12.99, description: 'NETFLIX.COM' },
    ]);
    expect(pushed.body.data.map((t: any) => [t.status, t.accountId, t.ruleId])).toEqual([
      ['uncategorized', null, null],
      ['uncategorized', null, null],
    ]);
    const pl = await report('profit-and-loss');
    expect(pl.sections.find((s: any) => s.section === 'income').lines).toEqual([
      expect.objectContaining({ accountName: 'Uncategorized Income', amount: 1500 }),
    ]);
    expect(pl.sections.find((s: any) => s.section === 'expenses').lines).toEqual([
      expect.objectContaining({ accountName: 'Uncategorized Expense', amount: 12.99 }),
    ]);
  });

  it('a card purchase credits the card and debits the category', async () => {
    await uberRule();
    await push(card.id, [{ date: '2026-03-05', amount: -80, description: 'Uber Eats' }]);
    const tb = await report('trial-balance');
    expect(tb.rows.find((r: any) => r.accountName === 'Chase Sapphire')).toMatchObject({
      debit: 0,
      credit: 80,
    });
    expect(tb.rows.find((r: any) => r.accountName === 'Travel')).toMatchObject({
      debit: 80,
      credit: 0,
    });
  });

  it('a rule affects only transactions processed after it exists; deleting it changes nothing applied', async () => {
    await push(checking.id, [{ date: '2026-03-01', amount: -10, description: 'UBER early' }]);
    const created = await uberRule();
    await push(checking.id, [{ date: '2026-03-02', amount: -20, description: 'UBER later' }]);
    await server.request('DELETE', `${rules()}/${created.body.rule.id}`);
    const list = (
      await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`)
    ).body;
    expect(list.data.map((t: any) => [t.description, t.status])).toEqual([
      ['UBER later', 'categorized'],
      ['UBER early', 'uncategorized'],
    ]);
    expect(list.pagination).toEqual({ limit: 100, offset: 0, total: 2 });
  });

  it('skips a repeated externalId, within a request and across requests', async () => {
    const first = await push(checking.id, [
      { date: '2026-03-01', amount: 5, description: 'A', externalId: 'x-1' },
      { date: '2026-03-01', amount: 5, description: 'A again', externalId: 'x-1' },
    ]);
    expect(first.body.data).toHaveLength(1);
    const second = await push(checking.id, [
      { date: '2026-03-01', amount: 5, description: 'A', externalId: 'x-1' },
      { date: '2026-03-02', amount: 6, description: 'B', externalId: 'x-2' },
    ]);
    expect(second.body.data.map((t: any) => t.description)).toEqual(['B']);
    // The same externalId on another financial account is another transaction.
    expect(
      (
        await push(card.id, [
          { date: '2026-03-01', amount: 5, description: 'A', externalId: 'x-1' },
        ])
      ).body.data,
    ).toHaveLength(1);
    const tb = await report('trial-balance');
    expect(tb.rows.find((r: any) => r.accountName === 'Chase Checking').debit).toBe(11);
  });

  it('a merge of the category account moves the transactions’ category', async () => {
    await uberRule();
    const pushed = await push(checking.id, [
      { date: '2026-03-02', amount: -24.5, description: 'UBER' },
    ]);
    const rides = await books.account('Rides', 'Operating Expenses');
    const merged = await server.request('POST', `${books.base}/chart-of-accounts/merge`, {
      body: { sourceAccountId: travel.id, targetAccountId: rides.id },
    });
    expect(merged.status).toBe(200);
    const list = (
      await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`)
    ).body.data;
    expect(list.find((t: any) => t.id === pushed.body.data[0].id).accountId).toBe(rides.id);
    const tb = await report('trial-balance');
    expect(tb.rows.find((r: any) => r.accountName === 'Rides')).toMatchObject({ debit: 24.5 });
    const rule = (await server.request('GET', rules())).body.data[0];
    expect(rule.actions).toEqual([{ actionType: 'account_id', value: rides.id }]);
  });

  it('breaks once (recording the transition once) and reconnects', async () => {
    const broken = await server.request(
      'POST',
      `/sandbox/v1/bank-feed-connections/${connectionId}/break`,
      { body: { errorCode: 'mfa_required' } },
    );
    expect(broken.status).toBe(200);
    expect(broken.body.connection.status).toBe('broken');
    const again = await server.request(
      'POST',
      `/sandbox/v1/bank-feed-connections/${connectionId}/break`,
      { body: { errorCode: 'disconnected' } },
    );
    expect(again.body.connection.status).toBe('broken');
    expect(await server.platform.engine.store.bankFeeds.events(connectionId)).toEqual([
      {
        id: expect.any(String),
        event: 'feed.connection.disconnected',
        errorCode: 'mfa_required',
        occurredAt: expect.any(String),
      },
    ]);
    const back = await server.request(
      'POST',
      `/sandbox/v1/bank-feed-connections/${connectionId}/reconnect`,
    );
    expect(back.body.connection.status).toBe('syncing');
    await server.request('POST', `/sandbox/v1/bank-feed-connections/${connectionId}/break`, {
      body: { errorCode: 'disconnected' },
    });
    expect(await server.platform.engine.store.bankFeeds.events(connectionId)).toHaveLength(2);
    const bad = await server.request(
      'POST',
      `/sandbox/v1/bank-feed-connections/${connectionId}/break`,
      { body: { errorCode: 'gone' } },
    );
    expect(bad.status).toBe(400);
  });

  it('validates pushed transactions, all or nothing', async () => {
    const fine = { date: '2026-03-01', amount: 1, description: 'fine' };
    const cases: [unknown, string][] = [
      [
        { date: '2026-03-01', amount: 0, description: 'zero' },
        'transactions[1].amount must not be zero',
      ],
      [
        { date: '2026-03-01', amount: 1.005, description: 'x' },
        'transactions[1].amount must have at most 2 decimals',
      ],
      [
        { date: '2026-03-01', amount: -1e15, description: 'x' },
        'transactions[1].amount must not exceed 999,999,999,999.99',
      ],
      [
        { date: '2026-03-01', amount: 1, description: '  ' },
        'transactions[1].description must not be empty',
      ],
      [
        { date: '2026-02-30', amount: 1, description: 'x' },
        'body.transactions[1].date must be a valid date (YYYY-MM-DD)',
      ],
      [{ date: '2026-03-01', description: 'x' }, 'body.transactions[1].amount is required'],
    ];
    for (const [bad, message] of cases) {
      expect(errorOf(await push(checking.id, [fine, bad]))).toEqual({
        status: 400,
        message,
        traceMatches: true,
      });
    }
    expect(errorOf(await push(checking.id, []))).toMatchObject({
      status: 400,
      message: 'body.transactions must NOT have fewer than 1 items',
    });
    const tooMany = await push(
      checking.id,
      Array.from({ length: 1001 }, () => fine),
    );
    expect(errorOf(tooMany)).toMatchObject({
      status: 400,
      message: 'body.transactions must NOT have more than 1000 items',
    });
    expect(
      (await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`)).body
        .pagination.total,
    ).toBe(0);

    await server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, {
      body: { lockDate: '2026-03-31' },
    });
    const locked = await push(checking.id, [
      { ...fine, date: '2026-04-01' },
      { ...fine, date: '2026-03-31' },
    ]);
    expect(errorOf(locked)).toEqual({
      status: 409,
      message: 'transactions[1].date 2026-03-31 is on or before the lock date 2026-03-31',
      traceMatches: true,
    });
    expect(
      (await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`)).body
        .pagination.total,
    ).toBe(0);
    expect((await push(MISSING_ID, [fine])).status).toBe(404);
  });

  it("reads another organization's connections, accounts and transactions as 404", async () => {
    const { token } = await createOrganization(server);
    expect(
      (
        await server.request('POST', `/sandbox/v1/financial-accounts/${checking.id}/transactions`, {
          token,
          body: { transactions: [{ date: '2026-03-01', amount: 1, description: 'x' }] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await server.request('POST', `/sandbox/v1/bank-feed-connections/${connectionId}/break`, {
          token,
          body: { errorCode: 'disconnected' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await server.request(
          'POST',
          `/sandbox/v1/bank-feed-connections/${connectionId}/reconnect`,
          { token },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`, {
          token,
        })
      ).status,
    ).toBe(404);
  });
});
