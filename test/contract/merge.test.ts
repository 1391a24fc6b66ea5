import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import { errorOf, startServer, type TestServer, MISSING_ID } from '../helpers/server.js';

describe('POST .../chart-of-accounts/merge', () => {
  let server: TestServer;
  let books: TestEntity;
  let merge: (sourceAccountId: string, targetAccountId: string) => Promise<any>;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    merge = (sourceAccountId, targetAccountId) =>
      server.request('POST', `${books.base}/chart-of-accounts/merge`, {
        body: { sourceAccountId, targetAccountId },
      });
  });

  const lock = (lockDate: string | null) =>
    server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, { body: { lockDate } });
  const openingBalance = (date: string, debitId: string, creditId: string, amount: number) =>
    server.request('POST', `/sandbox/v1/entities/${books.entityId}/opening-balances`, {
      body: {
        date,
        lines: [
          { accountId: debitId, debitAmount: amount },
          { accountId: creditId, creditAmount: amount },
        ],
      },
    });

  it('moves every journal line and rule action to the target, then deletes the source', async () => {
    const oldChecking = await books.account('Chase Checking (migrated)', 'Cash');
    const checking = await books.account('Chase Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    const first = (await books.post(books.entry('2026-02-01', oldChecking.id, sales.id, 120.5)))
      .body.journalEntry;
    const second = (await books.post(books.entry('2026-02-02', checking.id, sales.id, 30))).body
      .journalEntry;
    const rules = `/platform/v1/workspaces/${books.workspaceId}/transaction-rules`;
    const rule = await server.request('POST', rules, {
      body: {
        conditions: [{ conditionType: 'description_contains', value: ['deposit'] }],
        actions: [{ actionType: 'account_id', value: oldChecking.id }],
      },
    });

    const response = await merge(oldChecking.id, checking.id);
    expect(response.status).toBe(200);
    expect(response.body.account).toEqual(checking);

    expect(
      (await server.request('GET', `${books.base}/chart-of-accounts/${oldChecking.id}`)).status,
    ).toBe(404);
    const moved = await server.request('GET', `${books.base}/journal-entries/${first.id}`);
    expect(moved.body.journalEntry.lines[0]).toMatchObject({
      accountId: checking.id,
      accountCode: 1001,
      accountName: 'Chase Checking',
      debitAmount: 120.5,
    });
    expect(
      (await server.request('GET', `${books.base}/journal-entries/${second.id}`)).body.journalEntry
        .lines[0].accountId,
    ).toBe(checking.id);
    const ruleAfter = await server.request('GET', `${rules}/${rule.body.rule.id}`);
    expect(ruleAfter.body.rule.actions).toEqual([{ actionType: 'account_id', value: checking.id }]);
    // The source's postings now sit on the target: it cannot be deleted, the source is gone.
    expect(
      (await server.request('DELETE', `${books.base}/chart-of-accounts/${checking.id}`)).status,
    ).toBe(409);
  });

  it('blocker source_is_financial: the source is linked to a bank feed', async () => {
    const connection = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/bank-feed-connections`,
      {
        body: { bankName: 'Chase', accounts: [{ name: 'Chase Checking', kind: 'bank' }] },
      },
    );
    expect(connection.status).toBe(201);
    const feedAccountId = connection.body.connection.financialAccounts[0].chartAccountId;
    const migrated = await books.account('Checking (old books)', 'Cash');
    const response = await merge(feedAccountId, migrated.id);
    expect(errorOf(response)).toEqual({
      status: 409,
      message: 'the merge is blocked: source_is_financial',
      traceMatches: true,
    });
    expect(response.body.blockers).toEqual([
      {
        code: 'source_is_financial',
        message: 'the source account is linked to a bank feed; merge it as the target instead',
      },
    ]);
    // The procedure's direction — migration-time account into the feed account — works.
    expect((await merge(migrated.id, feedAccountId)).status).toBe(200);
  });

  it('blocker different_class', async () => {
    const cash = await books.account('Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    const response = await merge(cash.id, sales.id);
    expect(response.status).toBe(409);
    expect(response.body.blockers).toEqual([
      {
        code: 'different_class',
        message: 'the source is in Assets and the target in Income; both must share a class',
      },
    ]);
  });

  it('blocker locked_period: the source has postings on or before the lock date', async () => {
    const old = await books.account('Old Checking', 'Cash');
    const target = await books.account('Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    await books.post(books.entry('2026-03-31', old.id, sales.id, 10));
    await lock('2026-03-31');
    const response = await merge(old.id, target.id);
    expect(response.status).toBe(409);
    expect(response.body.blockers.map((b: any) => b.code)).toEqual(['locked_period']);
    expect(response.body.blockers[0].message).toBe(
      'the source has postings dated on or before the lock date 2026-03-31',
    );
    await lock('2026-03-30');
    expect((await merge(old.id, target.id)).status).toBe(200);
  });

  it('blocker locked_period_must_be_unlocked: the target has postings on or before the lock date', async () => {
    const old = await books.account('Old Checking', 'Cash');
    const target = await books.account('Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    await books.post(books.entry('2026-01-15', target.id, sales.id, 10));
    await books.post(books.entry('2026-06-15', old.id, sales.id, 10));
    await lock('2026-01-31');
    const response = await merge(old.id, target.id);
    expect(response.status).toBe(409);
    expect(response.body.blockers.map((b: any) => b.code)).toEqual([
      'locked_period_must_be_unlocked',
    ]);
  });

  it('blocker both_have_opening_balance', async () => {
    const a = await books.account('Checking A', 'Cash');
    const b = await books.account('Checking B', 'Cash');
    const equity = await books.account('Opening Equity', 'Equity');
    await openingBalance('2025-12-31', a.id, equity.id, 100);
    expect((await merge(a.id, b.id)).status).toBe(200);
    const c = await books.account('Checking C', 'Cash');
    await openingBalance('2025-12-31', c.id, equity.id, 50);
    const response = await merge(c.id, b.id);
    expect(response.status).toBe(409);
    expect(response.body.blockers).toEqual([
      { code: 'both_have_opening_balance', message: 'both accounts carry an opening balance' },
    ]);
  });

  it('reports every blocker at once', async () => {
    const connection = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/bank-feed-connections`,
      {
        body: { bankName: 'Amex', accounts: [{ name: 'Amex Card', kind: 'credit_card' }] },
      },
    );
    const card = connection.body.connection.financialAccounts[0].chartAccountId;
    const rent = await books.account('Rent', 'Operating Expenses');
    const equity = await books.account('Opening Equity', 'Equity');
    await openingBalance('2025-12-31', rent.id, card, 10);
    await openingBalance('2025-12-31', rent.id, equity, 10);
    await lock('2025-12-31');
    const response = await merge(card, rent.id);
    expect(response.body.blockers.map((b: any) => b.code)).toEqual([
      'source_is_financial',
      'different_class',
      'locked_period',
      'locked_period_must_be_unlocked',
      'both_have_opening_balance',
    ]);
    expect(response.body.message).toBe(
      'the merge is blocked: source_is_financial, different_class, locked_period, locked_period_must_be_unlocked, both_have_opening_balance',
    );
  });

  it('answers 400 for the same account twice, 404 for an unknown one', async () => {
    const cash = await books.account('Checking', 'Cash');
    expect(errorOf(await merge(cash.id, cash.id))).toEqual({
      status: 400,
      message: 'sourceAccountId and targetAccountId must be different accounts',
      traceMatches: true,
    });
    expect(errorOf(await merge(MISSING_ID, cash.id))).toEqual({
      status: 404,
      message: 'source account not found',
      traceMatches: true,
    });
    expect(errorOf(await merge(cash.id, MISSING_ID))).toEqual({
      status: 404,
      message: 'target account not found',
      traceMatches: true,
    });
    const other = await createEntity(server);
    const elsewhere = await other.account('Checking', 'Cash');
    expect((await merge(cash.id, elsewhere.id)).status).toBe(404);
    const body = await server.request('POST', `${books.base}/chart-of-accounts/merge`, {
      body: { sourceAccountId: cash.id },
    });
    expect(errorOf(body)).toEqual({
      status: 400,
      message: 'body.targetAccountId is required',
      traceMatches: true,
    });
  });
});
