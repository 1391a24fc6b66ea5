import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES } from '../../src/api/index.js';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import {
  createOrganization,
  errorOf,
  startServer,
  type TestServer,
  MISSING_ID,
} from '../helpers/server.js';

const EXPECTED_CLASS: Record<string, string> = {
  Cash: 'Assets',
  'Accounts Receivable': 'Assets',
  Inventory: 'Assets',
  'Other Current Assets': 'Assets',
  Investments: 'Assets',
  'Fixed Assets': 'Assets',
  'Intangible Assets': 'Assets',
  'Other Assets': 'Assets',
  'Prepaid Expenses': 'Assets',
  'Accounts Payable': 'Liabilities',
  'Credit Cards': 'Liabilities',
  'Payroll Liabilities': 'Liabilities',
  'Short-Term Loans': 'Liabilities',
  'Other Current Liabilities': 'Liabilities',
  'Long-Term Loans': 'Liabilities',
  'Other Liabilities': 'Liabilities',
  Equity: 'Equity',
  Income: 'Income',
  'Other Income': 'Income',
  COGS: 'Expenses',
  'Operating Expenses': 'Expenses',
  'Other Expenses': 'Expenses',
  'Tax Expenses': 'Expenses',
};
const FIRST_CODE: Record<string, string> = {
  Assets: '1000',
  Liabilities: '2000',
  Equity: '3000',
  Income: '4000',
  'Other Income': '4500',
  COGS: '5000',
  'Operating Expenses': '6000',
  'Other Expenses': '8000',
  'Tax Expenses': '9000',
};

describe('chart of accounts', () => {
  let server: TestServer;
  let books: TestEntity;
  let coa: string;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    coa = `${books.base}/chart-of-accounts`;
  });

  describe('create', () => {
    it.each(ACCOUNT_TYPES)(
      'derives the class of %s and allocates the first code of its range',
      async (type) => {
        const account = await books.account(`A ${type}`, type);
        const accountClass = EXPECTED_CLASS[type]!;
        expect(account).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: `A ${type}`,
          code: FIRST_CODE[type] ?? FIRST_CODE[accountClass],
          type,
          class: accountClass,
          groupId: null,
          financialAccountId: null,
          isDisabled: false,
          createdAt: expect.stringMatching(/Z$/),
        });
      },
    );

    it('allocates the next code after the highest in the range', async () => {
      const codes = [];
      for (const name of ['Checking', 'Savings', 'Petty Cash'])
        codes.push((await books.account(name, 'Cash')).code);
      codes.push((await books.account('Receivables', 'Accounts Receivable')).code);
      expect(codes).toEqual(['1000', '1001', '1002', '1003']);
      expect((await books.account('Sales', 'Income')).code).toBe('4000');
      expect((await books.account('Interest', 'Other Income')).code).toBe('4500');
    });

    it('ignores a supplied code unless the workspace keeps a custom chart', async () => {
      expect((await books.account('Checking', 'Cash', { code: '1234' })).code).toBe('1000');
      await server.request('PATCH', `/sandbox/v1/workspaces/${books.workspaceId}`, {
        body: { customChartOfAccounts: true },
      });
      expect((await books.account('Savings', 'Cash', { code: ' 1234 ' })).code).toBe('1234');
      expect((await books.account('Petty Cash', 'Cash')).code).toBe('1235');
      const duplicate = await server.request('POST', coa, {
        body: { name: 'Other', type: 'Cash', code: '1234' },
      });
      expect(errorOf(duplicate)).toEqual({
        status: 400,
        message: 'code 1234 is already used by another account',
        traceMatches: true,
      });
      const notNumeric = await server.request('POST', coa, {
        body: { name: 'Other', type: 'Cash', code: '12A' },
      });
      expect(errorOf(notNumeric)).toEqual({
        status: 400,
        message: 'code must be a numeric string',
        traceMatches: true,
      });
    });

    it('answers 400 for a name already used in the entity, case-insensitively, archived included', async () => {
      const checking = await books.account('Checking', 'Cash');
      await server.request('POST', `${coa}/${checking.id}/disable`);
      const response = await server.request('POST', coa, {
        body: { name: '  CHECKING ', type: 'Cash' },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'name: an account named "CHECKING" already exists',
        traceMatches: true,
      });
      const elsewhere = await createEntity(server);
      await elsewhere.account('Checking', 'Cash');
    });

    it('places an account in a group of the same type only', async () => {
      const group = await server.request('POST', `${books.base}/account-groups`, {
        body: { name: 'Banks', type: 'Cash' },
      });
      const grouped = await books.account('Checking', 'Cash', { groupId: group.body.group.id });
      expect(grouped.groupId).toBe(group.body.group.id);
      const wrongType = await server.request('POST', coa, {
        body: { name: 'Rent', type: 'Operating Expenses', groupId: group.body.group.id },
      });
      expect(errorOf(wrongType)).toEqual({
        status: 400,
        message: 'groupId must name an account group of the entity of type Operating Expenses',
        traceMatches: true,
      });
      const missing = await server.request('POST', coa, {
        body: { name: 'Savings', type: 'Cash', groupId: MISSING_ID },
      });
      expect(missing.status).toBe(400);
    });

    it.each([
      [{ type: 'Cash' }, 'body.name is required'],
      [{ name: 'x' }, 'body.type is required'],
      [{ name: 'x', type: 'Assets' }, /^body\.type must be one of Cash, Accounts Receivable, /],
      [{ name: 'x', type: 'Cash', class: 'Assets' }, null],
      [{ name: '', type: 'Cash' }, 'name must not be empty'],
      [{ name: 'x', type: 'Cash', groupId: 'nope' }, 'body.groupId must be a valid uuid or null'],
    ])('validates %j', async (body, message) => {
      const response = await server.request('POST', coa, { body });
      if (message === null) {
        // Unknown properties are ignored: a class is never taken, always derived.
        expect(response.status).toBe(201);
        expect(response.body.account.class).toBe('Assets');
        return;
      }
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
    });
  });

  describe('bulk create', () => {
    it('creates up to 100 accounts in order, allocating codes across the batch', async () => {
      const accounts = Array.from({ length: 100 }, (_, i) => ({
        name: `Expense ${i}`,
        type: 'Operating Expenses',
      }));
      const response = await server.request('POST', `${coa}/bulk`, { body: { accounts } });
      expect(response.status).toBe(201);
      expect(response.body.data).toHaveLength(100);
      expect(response.body.data[0]).toMatchObject({ name: 'Expense 0', code: '6000' });
      expect(response.body.data[99]).toMatchObject({ name: 'Expense 99', code: '6099' });
    });

    it('is atomic: one bad account and nothing is written', async () => {
      const response = await server.request('POST', `${coa}/bulk`, {
        body: {
          accounts: [
            { name: 'Checking', type: 'Cash' },
            { name: 'Sales', type: 'Income' },
            { name: 'checking', type: 'Cash' },
          ],
        },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'accounts[2].name: an account named "checking" already exists',
        traceMatches: true,
      });
      expect((await server.request('GET', coa)).body.pagination.total).toBe(0);
    });

    it('answers 400 for more than 100 accounts, or none', async () => {
      const accounts = Array.from({ length: 101 }, (_, i) => ({ name: `A${i}`, type: 'Cash' }));
      const tooMany = await server.request('POST', `${coa}/bulk`, { body: { accounts } });
      expect(errorOf(tooMany)).toEqual({
        status: 400,
        message: 'body.accounts must NOT have more than 100 items',
        traceMatches: true,
      });
      expect((await server.request('POST', `${coa}/bulk`, { body: { accounts: [] } })).status).toBe(
        400,
      );
      expect((await server.request('GET', coa)).body.pagination.total).toBe(0);
    });
  });

  describe('list, get, update', () => {
    it('lists every account, archived included, in chart (code) order', async () => {
      const sales = await books.account('Sales', 'Income');
      const cash = await books.account('Checking', 'Cash');
      const rent = await books.account('Rent', 'Operating Expenses');
      await server.request('POST', `${coa}/${rent.id}/disable`);
      const list = await server.request('GET', coa);
      expect(list.body.data.map((a: any) => [a.code, a.name, a.isDisabled])).toEqual([
        ['1000', 'Checking', false],
        ['4000', 'Sales', false],
        ['6000', 'Rent', true],
      ]);
      expect(list.body.pagination).toEqual({ limit: 100, offset: 0, total: 3 });
      expect((await server.request('GET', `${coa}/${sales.id}`)).body.account).toEqual(sales);
      expect((await server.request('GET', `${coa}?limit=1&offset=1`)).body.data[0].id).toBe(
        sales.id,
      );
      expect(cash.code).toBe('1000');
    });

    it('renames and regroups, leaving type, class and code alone', async () => {
      const cash = await books.account('Checking', 'Cash');
      const group = (
        await server.request('POST', `${books.base}/account-groups`, {
          body: { name: 'Banks', type: 'Cash' },
        })
      ).body.group;
      const renamed = await server.request('PATCH', `${coa}/${cash.id}`, {
        body: { name: 'Operating Checking', groupId: group.id },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.account).toEqual({
        ...cash,
        name: 'Operating Checking',
        groupId: group.id,
      });
      const ungrouped = await server.request('PATCH', `${coa}/${cash.id}`, {
        body: { groupId: null },
      });
      expect(ungrouped.body.account.groupId).toBeNull();
      expect(ungrouped.body.account.name).toBe('Operating Checking');
    });

    it.each([
      [{ type: 'Income' }, 'type is fixed after creation; only name and groupId change'],
      [{ code: '1999' }, 'code is fixed after creation; only name and groupId change'],
      [{ name: 'Sales' }, 'name: an account named "Sales" already exists'],
      [{ name: ' ' }, 'name must not be empty'],
    ])('PATCH answers 400 for %j', async (body, message) => {
      const cash = await books.account('Checking', 'Cash');
      await books.account('Sales', 'Income');
      const response = await server.request('PATCH', `${coa}/${cash.id}`, { body });
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('archives and restores', async () => {
      const cash = await books.account('Checking', 'Cash');
      const disabled = await server.request('POST', `${coa}/${cash.id}/disable`);
      expect(disabled.body.account.isDisabled).toBe(true);
      const enabled = await server.request('POST', `${coa}/${cash.id}/enable`);
      expect(enabled.body.account).toEqual(cash);
    });
  });

  describe('delete', () => {
    it('deletes an unused account (200, empty), and answers 409 once anything posted to it', async () => {
      const unused = await books.account('Unused', 'Cash');
      const response = await server.request('DELETE', `${coa}/${unused.id}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect((await server.request('GET', `${coa}/${unused.id}`)).status).toBe(404);

      const cash = await books.account('Checking', 'Cash');
      const sales = await books.account('Sales', 'Income');
      expect((await books.post(books.entry('2026-01-05', cash.id, sales.id, 10))).status).toBe(201);
      const blocked = await server.request('DELETE', `${coa}/${cash.id}`);
      expect(errorOf(blocked)).toEqual({
        status: 409,
        message: 'account 1000 Checking has postings; archive it instead',
        traceMatches: true,
      });
    });

    it('answers 409 for an account carrying only an opening balance', async () => {
      const cash = await books.account('Checking', 'Cash');
      const equity = await books.account('Owner Equity', 'Equity');
      await server.request('POST', `/sandbox/v1/entities/${books.entityId}/opening-balances`, {
        body: {
          date: '2025-12-31',
          lines: [
            { accountId: cash.id, debitAmount: 500 },
            { accountId: equity.id, creditAmount: 500 },
          ],
        },
      });
      expect((await server.request('DELETE', `${coa}/${equity.id}`)).status).toBe(409);
    });

    it('removes the account from rule actions (a rule left with none is disabled)', async () => {
      const rent = await books.account('Rent', 'Operating Expenses');
      const rule = await server.request(
        'POST',
        `/platform/v1/workspaces/${books.workspaceId}/transaction-rules`,
        {
          body: {
            conditions: [{ conditionType: 'description_contains', value: ['landlord'] }],
            actions: [{ actionType: 'account_id', value: rent.id }],
          },
        },
      );
      expect(rule.status).toBe(201);
      expect((await server.request('DELETE', `${coa}/${rent.id}`)).status).toBe(200);
      const after = await server.request(
        'GET',
        `/platform/v1/workspaces/${books.workspaceId}/transaction-rules/${rule.body.rule.id}`,
      );
      expect(after.body.rule).toMatchObject({ actions: [], isDisabled: true });
    });
  });

  it("reads another organization's entity and accounts as 404", async () => {
    const cash = await books.account('Checking', 'Cash');
    const { token } = await createOrganization(server);
    for (const [method, path] of [
      ['GET', coa],
      ['POST', coa],
      ['GET', `${coa}/${cash.id}`],
      ['PATCH', `${coa}/${cash.id}`],
      ['POST', `${coa}/${cash.id}/disable`],
      ['POST', `${coa}/${cash.id}/enable`],
      ['DELETE', `${coa}/${cash.id}`],
      ['POST', `${coa}/bulk`],
      ['POST', `${coa}/merge`],
    ] as const) {
      const body =
        method === 'POST' && path.endsWith('bulk')
          ? { accounts: [{ name: 'x', type: 'Cash' }] }
          : path.endsWith('merge')
            ? { sourceAccountId: cash.id, targetAccountId: MISSING_ID }
            : method === 'POST' && path === coa
              ? { name: 'x', type: 'Cash' }
              : method === 'PATCH'
                ? { name: 'x' }
                : undefined;
      const response = await server.request(method, path, { token, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await server.request('GET', `${coa}/${cash.id}`)).body.account).toEqual(cash);
  });

  it('answers 404 for unknown accounts and entities', async () => {
    expect((await server.request('GET', `${coa}/${MISSING_ID}`)).status).toBe(404);
    expect((await server.request('POST', `${coa}/${MISSING_ID}/disable`)).status).toBe(404);
    expect(
      (await server.request('GET', `/platform/v1/entities/${MISSING_ID}/chart-of-accounts`)).status,
    ).toBe(404);
  });
});
