import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import {
  createOrganization,
  errorOf,
  startServer,
  type TestServer,
  MISSING_ID,
} from '../helpers/server.js';

describe('account groups', () => {
  let server: TestServer;
  let books: TestEntity;
  let groupsPath: string;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    groupsPath = `${books.base}/account-groups`;
  });

  const createGroup = async (name: string, type: string, parentGroupId?: string | null) => {
    const response = await server.request('POST', groupsPath, {
      body: { name, type, ...(parentGroupId !== undefined && { parentGroupId }) },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.group as {
      id: string;
      name: string;
      parentGroupId: string | null;
      type: string;
    };
  };

  it('creates top-level and nested groups of one type', async () => {
    const banks = await createGroup('Banks', 'Cash');
    expect(banks).toEqual({
      id: expect.any(String),
      name: 'Banks',
      parentGroupId: null,
      type: 'Cash',
      createdAt: expect.stringMatching(/Z$/),
    });
    const chase = await createGroup('Chase', 'Cash', banks.id);
    expect(chase.parentGroupId).toBe(banks.id);
    expect((await server.request('GET', `${groupsPath}/${chase.id}`)).body.group).toEqual(chase);
  });

  it('accepts depth 5 and rejects depth 6', async () => {
    let parent: string | null = null;
    for (let depth = 1; depth <= 5; depth += 1)
      parent = (await createGroup(`Level ${depth}`, 'Operating Expenses', parent)).id;
    const sixth = await server.request('POST', groupsPath, {
      body: { name: 'Level 6', type: 'Operating Expenses', parentGroupId: parent },
    });
    expect(errorOf(sixth)).toEqual({
      status: 400,
      message: 'account groups nest at most 5 levels deep',
      traceMatches: true,
    });
  });

  it('rejects a move that would exceed the depth with the moved subtree', async () => {
    const a = await createGroup('A', 'Income');
    const b = await createGroup('B', 'Income', a.id);
    const c = await createGroup('C', 'Income', b.id);
    const x = await createGroup('X', 'Income');
    const y = await createGroup('Y', 'Income', x.id);
    await createGroup('Z', 'Income', y.id);
    // Moving X (height 3) under C (depth 3) would reach depth 6.
    const response = await server.request('PATCH', `${groupsPath}/${x.id}`, {
      body: { parentGroupId: c.id },
    });
    expect(errorOf(response)).toEqual({
      status: 400,
      message: 'account groups nest at most 5 levels deep',
      traceMatches: true,
    });
    // Under B (depth 2) it reaches exactly 5.
    const ok = await server.request('PATCH', `${groupsPath}/${x.id}`, {
      body: { parentGroupId: b.id },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.group.parentGroupId).toBe(b.id);
  });

  it('rejects cycles: a group under itself or its descendant', async () => {
    const a = await createGroup('A', 'COGS');
    const b = await createGroup('B', 'COGS', a.id);
    const c = await createGroup('C', 'COGS', b.id);
    for (const parent of [a.id, c.id]) {
      const response = await server.request('PATCH', `${groupsPath}/${a.id}`, {
        body: { parentGroupId: parent },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'a group cannot be moved under itself or its descendants',
        traceMatches: true,
      });
    }
  });

  it('keeps parent and children of the same type', async () => {
    const banks = await createGroup('Banks', 'Cash');
    const response = await server.request('POST', groupsPath, {
      body: { name: 'Rent', type: 'Operating Expenses', parentGroupId: banks.id },
    });
    expect(errorOf(response)).toEqual({
      status: 400,
      message: 'parentGroupId must name a group of type Operating Expenses, not Cash',
      traceMatches: true,
    });
    const other = await createGroup('Other', 'Income');
    const move = await server.request('PATCH', `${groupsPath}/${other.id}`, {
      body: { parentGroupId: banks.id },
    });
    expect(move.status).toBe(400);
    const missing = await server.request('POST', groupsPath, {
      body: { name: 'Lost', type: 'Cash', parentGroupId: MISSING_ID },
    });
    expect(errorOf(missing)).toEqual({
      status: 400,
      message: 'parentGroupId must name an account group of the entity',
      traceMatches: true,
    });
  });

  it('keeps sibling names unique per type, case-insensitively', async () => {
    await createGroup('Banks', 'Cash');
    const duplicate = await server.request('POST', groupsPath, {
      body: { name: 'BANKS', type: 'Cash' },
    });
    expect(errorOf(duplicate)).toEqual({
      status: 400,
      message: 'name: a sibling Cash group is already named "Banks"',
      traceMatches: true,
    });
    await createGroup('Banks', 'Credit Cards');
  });

  it('lists by type in type-table order, then depth-first with siblings by name', async () => {
    const utilities = await createGroup('Utilities', 'Operating Expenses');
    await createGroup('Water', 'Operating Expenses', utilities.id);
    await createGroup('Electric', 'Operating Expenses', utilities.id);
    await createGroup('Payroll', 'Operating Expenses');
    const banks = await createGroup('Banks', 'Cash');
    await createGroup('Wells', 'Cash', banks.id);
    await createGroup('Chase', 'Cash', banks.id);
    await createGroup('Product', 'Income');
    const list = await server.request('GET', groupsPath);
    expect(list.body.data.map((g: any) => g.name)).toEqual([
      'Banks',
      'Chase',
      'Wells',
      'Product',
      'Payroll',
      'Utilities',
      'Electric',
      'Water',
    ]);
    expect(list.body.pagination.total).toBe(8);
  });

  it('delete moves child groups and member accounts up to the parent, or to the top level', async () => {
    const banks = await createGroup('Banks', 'Cash');
    const national = await createGroup('National', 'Cash', banks.id);
    const chase = await createGroup('Chase', 'Cash', national.id);
    const checking = await books.account('Chase Checking', 'Cash', { groupId: national.id });

    expect((await server.request('DELETE', `${groupsPath}/${national.id}`)).status).toBe(200);
    expect(
      (await server.request('GET', `${groupsPath}/${chase.id}`)).body.group.parentGroupId,
    ).toBe(banks.id);
    const account = await server.request('GET', `${books.base}/chart-of-accounts/${checking.id}`);
    expect(account.body.account.groupId).toBe(banks.id);

    expect((await server.request('DELETE', `${groupsPath}/${banks.id}`)).status).toBe(200);
    expect(
      (await server.request('GET', `${groupsPath}/${chase.id}`)).body.group.parentGroupId,
    ).toBeNull();
    expect(
      (await server.request('GET', `${books.base}/chart-of-accounts/${checking.id}`)).body.account
        .groupId,
    ).toBeNull();
    expect((await server.request('GET', `${groupsPath}/${banks.id}`)).status).toBe(404);
  });

  it('renames; type is fixed', async () => {
    const banks = await createGroup('Banks', 'Cash');
    const renamed = await server.request('PATCH', `${groupsPath}/${banks.id}`, {
      body: { name: 'Bank Accounts' },
    });
    expect(renamed.body.group).toMatchObject({
      name: 'Bank Accounts',
      type: 'Cash',
      parentGroupId: null,
    });
    const retype = await server.request('PATCH', `${groupsPath}/${banks.id}`, {
      body: { type: 'Income' },
    });
    expect(errorOf(retype)).toEqual({
      status: 400,
      message: 'type is fixed after creation; only name and parentGroupId change',
      traceMatches: true,
    });
  });

  it.each([
    [{ type: 'Cash' }, 'body.name is required'],
    [{ name: 'x' }, 'body.type is required'],
    [{ name: 'x', type: 'Banks' }, /^body\.type must be one of /],
    [{ name: '  ', type: 'Cash' }, 'name must not be empty'],
  ])('POST answers 400 for %j', async (body, message) => {
    const response = await server.request('POST', groupsPath, { body });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it("reads another organization's groups as 404", async () => {
    const banks = await createGroup('Banks', 'Cash');
    const { token } = await createOrganization(server);
    expect((await server.request('GET', groupsPath, { token })).status).toBe(404);
    expect((await server.request('GET', `${groupsPath}/${banks.id}`, { token })).status).toBe(404);
    expect(
      (await server.request('PATCH', `${groupsPath}/${banks.id}`, { token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `${groupsPath}/${banks.id}`, { token })).status).toBe(
      404,
    );
    expect(
      (await server.request('POST', groupsPath, { token, body: { name: 'x', type: 'Cash' } }))
        .status,
    ).toBe(404);
  });
});
