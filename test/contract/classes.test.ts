import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createWorkspace,
  errorOf,
  startServer,
  type TestServer,
} from '../helpers/server.js';

describe('classes', () => {
  let server: TestServer;
  let workspaceId: string;
  let base: string;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    workspaceId = (await createWorkspace(server, 'Classy')).id;
    base = `/platform/v1/workspaces/${workspaceId}/classes`;
  });

  const createClass = async (label: string, parentClassId?: string | null) => {
    const response = await server.request('POST', base, {
      body: { label, ...(parentClassId !== undefined && { parentClassId }) },
    });
    expect(response.status).toBe(201);
    return response.body.class as {
      id: string;
      label: string;
      parentClassId: string | null;
      rootClassId: string;
    };
  };

  it('rule 1: a class without a parent is a root that references itself', async () => {
    const root = await createClass('Region');
    expect(root.parentClassId).toBeNull();
    expect(root.rootClassId).toBe(root.id);
    const explicitNull = await createClass('Department', null);
    expect(explicitNull.rootClassId).toBe(explicitNull.id);
  });

  it('rule 2: a class with a parent nests under it and shares its root', async () => {
    const region = await createClass('Region');
    const west = await createClass('West', region.id);
    const oregon = await createClass('Oregon', west.id);
    expect(west).toMatchObject({ parentClassId: region.id, rootClassId: region.id });
    expect(oregon).toMatchObject({ parentClassId: west.id, rootClassId: region.id });
    const read = await server.request('GET', `${base}/${oregon.id}`);
    expect(read.body.class).toEqual(oregon);
  });

  describe('rule 3: labels are unique among siblings (case-insensitive, trimmed)', () => {
    it('answers 409 for a duplicate sibling label on create', async () => {
      const region = await createClass('Region');
      await createClass('West', region.id);
      const duplicate = await server.request('POST', base, {
        body: { label: '  WEST ', parentClassId: region.id },
      });
      expect(errorOf(duplicate)).toEqual({
        status: 409,
        message: 'a sibling class is already labelled "WEST"',
        traceMatches: true,
      });
      const rootDuplicate = await server.request('POST', base, { body: { label: 'region' } });
      expect(rootDuplicate.status).toBe(409);
    });

    it('allows the same label under different parents', async () => {
      const region = await createClass('Region');
      const department = await createClass('Department');
      await createClass('Other', region.id);
      await createClass('Other', department.id);
    });

    it('answers 409 for a rename onto a sibling label, and allows renaming a class to itself', async () => {
      const region = await createClass('Region');
      await createClass('West', region.id);
      const east = await createClass('East', region.id);
      const clash = await server.request('PATCH', `${base}/${east.id}`, {
        body: { label: 'west' },
      });
      expect(clash.status).toBe(409);
      const recase = await server.request('PATCH', `${base}/${east.id}`, {
        body: { label: 'EAST' },
      });
      expect(recase.status).toBe(200);
      expect(recase.body.class).toEqual({ ...east, label: 'EAST' });
      const renamed = await server.request('PATCH', `${base}/${east.id}`, {
        body: { label: ' Northeast ' },
      });
      expect(renamed.body.class.label).toBe('Northeast');
    });

    it('label uniqueness is per workspace', async () => {
      await createClass('Region');
      const otherWorkspace = await createWorkspace(server, 'Other Books');
      const response = await server.request(
        'POST',
        `/platform/v1/workspaces/${otherWorkspace.id}/classes`,
        {
          body: { label: 'Region' },
        },
      );
      expect(response.status).toBe(201);
    });
  });

  it('rule 4: one class per root is enforced where classes are assigned (rule actions)', async () => {
    const region = await createClass('Region');
    const west = await createClass('West', region.id);
    const east = await createClass('East', region.id);
    const response = await server.request(
      'POST',
      `/platform/v1/workspaces/${workspaceId}/transaction-rules`,
      {
        body: {
          conditions: [{ conditionType: 'description_contains', value: ['uber'] }],
          actions: [
            { actionType: 'class_id', value: west.id },
            { actionType: 'class_id', value: east.id },
          ],
        },
      },
    );
    expect(errorOf(response)).toEqual({
      status: 400,
      message: 'actions may hold at most one class per root class',
      traceMatches: true,
    });
  });

  it('rule 5: deleting a class deletes its subtree and removes its assignments', async () => {
    const region = await createClass('Region');
    const west = await createClass('West', region.id);
    const oregon = await createClass('Oregon', west.id);
    const east = await createClass('East', region.id);
    const department = await createClass('Department');
    const rules = `/platform/v1/workspaces/${workspaceId}/transaction-rules`;
    const conditions = [{ conditionType: 'description_contains', value: ['coffee'] }];
    const onlyOregon = await server.request('POST', rules, {
      body: { conditions, actions: [{ actionType: 'class_id', value: oregon.id }] },
    });
    const oregonAndDepartment = await server.request('POST', rules, {
      body: {
        conditions,
        actions: [
          { actionType: 'class_id', value: oregon.id },
          { actionType: 'class_id', value: department.id },
        ],
      },
    });

    const response = await server.request('DELETE', `${base}/${west.id}`);
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    for (const gone of [west, oregon]) {
      expect((await server.request('GET', `${base}/${gone.id}`)).status).toBe(404);
    }
    const remaining = await server.request('GET', base);
    expect(remaining.body.data.map((c: { label: string }) => c.label)).toEqual([
      'Region',
      'East',
      'Department',
    ]);
    expect(east.parentClassId).toBe(region.id);

    const emptied = await server.request('GET', `${rules}/${onlyOregon.body.rule.id}`);
    expect(emptied.body.rule).toMatchObject({ actions: [], isDisabled: true });
    const trimmed = await server.request('GET', `${rules}/${oregonAndDepartment.body.rule.id}`);
    expect(trimmed.body.rule).toMatchObject({
      actions: [{ actionType: 'class_id', value: department.id }],
      isDisabled: false,
    });
  });

  it("rule 6: another organization's class reads as 404", async () => {
    const region = await createClass('Region');
    const other = await createOrganization(server);
    const token = other.token;
    expect((await server.request('GET', `${base}/${region.id}`, { token })).status).toBe(404);
    expect((await server.request('GET', base, { token })).status).toBe(404);
    expect(
      (await server.request('PATCH', `${base}/${region.id}`, { token, body: { label: 'x' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `${base}/${region.id}`, { token })).status).toBe(404);
    const theirs = await createWorkspace(server, 'Theirs', token);
    const crossParent = await server.request(
      'POST',
      `/platform/v1/workspaces/${theirs.id}/classes`,
      {
        token,
        body: { label: 'Sneaky', parentClassId: region.id },
      },
    );
    expect(errorOf(crossParent)).toEqual({
      status: 404,
      message: 'parent class not found',
      traceMatches: true,
    });
  });

  it('lists trees by creation of their root, depth-first, siblings by label', async () => {
    const region = await createClass('Region');
    const department = await createClass('Department');
    await createClass('west', region.id);
    const east = await createClass('East', region.id);
    await createClass('Sales', department.id);
    await createClass('Boston', east.id);
    await createClass('Albany', east.id);
    await createClass('Admin', department.id);
    const response = await server.request('GET', base);
    expect(response.status).toBe(200);
    expect(response.body.data.map((c: { label: string }) => c.label)).toEqual([
      'Region',
      'East',
      'Albany',
      'Boston',
      'west',
      'Department',
      'Admin',
      'Sales',
    ]);
    expect(response.body.pagination).toEqual({ limit: 100, offset: 0, total: 8 });
    const page = await server.request('GET', `${base}?limit=3&offset=2`);
    expect(page.body.data.map((c: { label: string }) => c.label)).toEqual([
      'Albany',
      'Boston',
      'west',
    ]);
  });

  describe('validation', () => {
    it.each([
      [{}, 'body.label is required'],
      [{ label: '' }, 'body.label must NOT have fewer than 1 characters'],
      [{ label: '   ' }, 'label must not be empty'],
      [{ label: 7 }, 'body.label must be string'],
      [{ label: 'x', color: 'red' }, 'body.color is not an allowed property'],
      [{ label: 'x', parentClassId: 'abc' }, 'body.parentClassId must be a valid uuid or null'],
    ])('POST answers 400 for %j', async (body, message) => {
      const response = await server.request('POST', base, { body });
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('POST answers 404 for a parent that does not exist', async () => {
      const response = await server.request('POST', base, {
        body: { label: 'Orphan', parentClassId: '00000000-0000-4000-8000-000000000000' },
      });
      expect(errorOf(response)).toEqual({
        status: 404,
        message: 'parent class not found',
        traceMatches: true,
      });
    });

    it.each([
      [{}, 'body.label is required'],
      [{ label: 'x', parentClassId: null }, 'body.parentClassId is not an allowed property'],
    ])('PATCH answers 400 for %j', async (body, message) => {
      const region = await createClass('Region');
      const response = await server.request('PATCH', `${base}/${region.id}`, { body });
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('answers 404 for an unknown workspace or class', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      expect(
        (await server.request('GET', `/platform/v1/workspaces/${missing}/classes`)).status,
      ).toBe(404);
      expect(
        (
          await server.request('POST', `/platform/v1/workspaces/${missing}/classes`, {
            body: { label: 'x' },
          })
        ).status,
      ).toBe(404);
      expect((await server.request('GET', `${base}/${missing}`)).status).toBe(404);
      expect((await server.request('GET', `${base}/not-a-uuid`)).status).toBe(404);
      expect(
        (await server.request('PATCH', `${base}/${missing}`, { body: { label: 'x' } })).status,
      ).toBe(404);
      expect((await server.request('DELETE', `${base}/${missing}`)).status).toBe(404);
    });

    it('answers 400 for bad list parameters', async () => {
      expect((await server.request('GET', `${base}?limit=500`)).status).toBe(400);
    });
  });
});
