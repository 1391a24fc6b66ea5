import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createWorkspace,
  errorOf,
  startServer,
  type TestServer,
  MISSING_ID,
} from '../helpers/server.js';

describe('transaction rules', () => {
  let server: TestServer;
  let workspaceId: string;
  let base: string;
  let classId: string;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    workspaceId = (await createWorkspace(server, 'Ruled')).id;
    base = `/platform/v1/workspaces/${workspaceId}/transaction-rules`;
    const created = await server.request('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
      body: { label: 'Travel' },
    });
    classId = created.body.class.id;
  });

  const classAction = () => [{ actionType: 'class_id', value: classId }];
  const createRule = async (body: Record<string, unknown>) => {
    const response = await server.request('POST', base, { body });
    expect(response.status, response.text).toBe(201);
    return response.body.rule;
  };

  it('creates a rule with every condition type, answering the documented shape', async () => {
    const conditions = [
      { conditionType: 'description_is', value: ['UBER TRIP', 'LYFT RIDE'] },
      { conditionType: 'description_contains', value: ['uber'] },
      { conditionType: 'description_starts_with', value: ['UBER'] },
      { conditionType: 'amount_is', value: ['12.5', '0'] },
      { conditionType: 'amount_greater_than', value: ['10'] },
      { conditionType: 'amount_less_than', value: ['999999999999.99'] },
      { conditionType: 'direction_is', value: ['outflow'] },
    ];
    const rule = await createRule({ conditions, actions: classAction(), note: 'rides' });
    expect(rule).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      conditions,
      actions: classAction(),
      note: 'rides',
      isDisabled: false,
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect((await server.request('GET', `${base}/${rule.id}`)).body.rule).toEqual(rule);
  });

  it('lists rules in application (creation) order', async () => {
    const ids = [];
    for (const word of ['zeta', 'alpha', 'mid']) {
      ids.push(
        (
          await createRule({
            conditions: [{ conditionType: 'description_contains', value: [word] }],
            actions: classAction(),
          })
        ).id,
      );
    }
    const list = await server.request('GET', base);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(list.body.pagination).toEqual({ limit: 100, offset: 0, total: 3 });
    const page = await server.request('GET', `${base}?limit=1&offset=2`);
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
  });

  describe('PATCH', () => {
    it('replaces conditions and actions wholesale, touching nothing else', async () => {
      const rule = await createRule({
        conditions: [
          { conditionType: 'description_contains', value: ['uber'] },
          { conditionType: 'direction_is', value: ['outflow'] },
        ],
        actions: classAction(),
        note: 'keep me',
      });
      const response = await server.request('PATCH', `${base}/${rule.id}`, {
        body: { conditions: [{ conditionType: 'amount_greater_than', value: ['100'] }] },
      });
      expect(response.status).toBe(200);
      expect(response.body.rule).toMatchObject({
        id: rule.id,
        conditions: [{ conditionType: 'amount_greater_than', value: ['100'] }],
        actions: classAction(),
        note: 'keep me',
        isDisabled: false,
      });
      expect(response.body.rule.updatedAt >= rule.updatedAt).toBe(true);
    });

    it('disables and enables with isDisabled', async () => {
      const rule = await createRule({
        conditions: [{ conditionType: 'description_is', value: ['x'] }],
        actions: classAction(),
      });
      const disabled = await server.request('PATCH', `${base}/${rule.id}`, {
        body: { isDisabled: true },
      });
      expect(disabled.body.rule.isDisabled).toBe(true);
      expect((await server.request('GET', `${base}/${rule.id}`)).body.rule.isDisabled).toBe(true);
      const enabled = await server.request('PATCH', `${base}/${rule.id}`, {
        body: { isDisabled: false },
      });
      expect(enabled.body.rule.isDisabled).toBe(false);
    });

    it('clears the note with null, sets it with a string', async () => {
      const rule = await createRule({
        conditions: [{ conditionType: 'description_is', value: ['x'] }],
        actions: classAction(),
        note: 'n',
      });
      const cleared = await server.request('PATCH', `${base}/${rule.id}`, { body: { note: null } });
      expect(cleared.body.rule.note).toBeNull();
      const set = await server.request('PATCH', `${base}/${rule.id}`, { body: { note: 'again' } });
      expect(set.body.rule.note).toBe('again');
    });

    it.each([
      [{ conditions: [] }, 'body.conditions must NOT have fewer than 1 items'],
      [{ actions: [] }, 'body.actions must NOT have fewer than 1 items'],
      [{ isDisabled: 'yes' }, 'body.isDisabled must be boolean'],
      [{ note: 5 }, 'body.note must be string or null'],
      [
        { conditions: [{ conditionType: 'direction_is', value: ['sideways'] }] },
        'conditions[0].value[0] must be one of inflow, outflow',
      ],
    ])('answers 400 for %j and changes nothing', async (body, message) => {
      const rule = await createRule({
        conditions: [{ conditionType: 'description_is', value: ['x'] }],
        actions: classAction(),
      });
      const response = await server.request('PATCH', `${base}/${rule.id}`, { body });
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
      expect((await server.request('GET', `${base}/${rule.id}`)).body.rule).toEqual(rule);
    });
  });

  it('deletes a rule: 200 with an empty body, then 404', async () => {
    const rule = await createRule({
      conditions: [{ conditionType: 'description_is', value: ['x'] }],
      actions: classAction(),
    });
    const response = await server.request('DELETE', `${base}/${rule.id}`);
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect((await server.request('GET', `${base}/${rule.id}`)).status).toBe(404);
    expect((await server.request('DELETE', `${base}/${rule.id}`)).status).toBe(404);
  });

  describe('validation on create', () => {
    const condition = { conditionType: 'description_contains', value: ['uber'] };
    it.each([
      [{ actions: [] }, 'body.conditions is required'],
      [{ conditions: [condition] }, 'body.actions is required'],
      [{ conditions: [], actions: 'ACTIONS' }, 'body.conditions must NOT have fewer than 1 items'],
      [
        { conditions: [{ conditionType: 'description_contains', value: [] }], actions: 'ACTIONS' },
        'body.conditions[0].value must NOT have fewer than 1 items',
      ],
      [
        {
          conditions: [{ conditionType: 'description_contains', value: 'uber' }],
          actions: 'ACTIONS',
        },
        'body.conditions[0].value must be array',
      ],
      [
        { conditions: [{ conditionType: 'memo_is', value: ['x'] }], actions: 'ACTIONS' },
        /^body\.conditions\[0\]\.conditionType must be one of description_is, /,
      ],
      [
        { conditions: [{ conditionType: 'description_is', value: ['  '] }], actions: 'ACTIONS' },
        'conditions[0].value[0] must not be empty',
      ],
      [
        { conditions: [{ conditionType: 'amount_is', value: ['12.345'] }], actions: 'ACTIONS' },
        'conditions[0].value[0] must have at most 2 decimals',
      ],
      [
        {
          conditions: [{ conditionType: 'amount_greater_than', value: ['-5'] }],
          actions: 'ACTIONS',
        },
        'conditions[0].value[0] must not be negative',
      ],
      [
        { conditions: [{ conditionType: 'amount_less_than', value: ['ten'] }], actions: 'ACTIONS' },
        'conditions[0].value[0] must be a decimal amount',
      ],
      [
        {
          conditions: [{ conditionType: 'amount_is', value: ['1', '1000000000000'] }],
          actions: 'ACTIONS',
        },
        'conditions[0].value[1] must not exceed 999,999,999,999.99',
      ],
      [
        { conditions: [{ conditionType: 'direction_is', value: ['in'] }], actions: 'ACTIONS' },
        'conditions[0].value[0] must be one of inflow, outflow',
      ],
      [
        {
          conditions: [{ conditionType: 'financial_account_is', value: [MISSING_ID] }],
          actions: 'ACTIONS',
        },
        'conditions[0].value[0] must be the id of a financial account of the workspace',
      ],
      [
        { conditions: [condition], actions: [{ actionType: 'tag', value: 'x' }] },
        'body.actions[0].actionType must be one of account_id, class_id',
      ],
      [
        { conditions: [condition], actions: [{ actionType: 'account_id', value: MISSING_ID }] },
        'actions[0].value must be the id of an account of an entity of the workspace',
      ],
      [
        { conditions: [condition], actions: [{ actionType: 'class_id', value: MISSING_ID }] },
        'actions[0].value must be the id of a class of the workspace',
      ],
      [
        { conditions: [condition], actions: [{ actionType: 'class_id', value: 'not-a-uuid' }] },
        'actions[0].value must be the id of a class of the workspace',
      ],
      [
        { conditions: [condition], actions: 'ACTIONS', note: 'n'.repeat(1001) },
        'body.note must NOT have more than 1000 characters',
      ],
    ])('answers 400 for %j', async (template, message) => {
      const body = JSON.parse(
        JSON.stringify(template).replace('"ACTIONS"', JSON.stringify(classAction())),
      );
      const response = await server.request('POST', base, { body });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
      expect(errorOf(response).traceMatches).toBe(true);
      expect((await server.request('GET', base)).body.pagination.total).toBe(0);
    });

    it('refuses a class of another workspace', async () => {
      const elsewhere = await createWorkspace(server, 'Elsewhere');
      const response = await server.request(
        'POST',
        `/platform/v1/workspaces/${elsewhere.id}/transaction-rules`,
        {
          body: { conditions: [condition], actions: classAction() },
        },
      );
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        'actions[0].value must be the id of a class of the workspace',
      );
    });
  });

  it("reads another organization's rules as 404", async () => {
    const rule = await createRule({
      conditions: [{ conditionType: 'description_is', value: ['x'] }],
      actions: classAction(),
    });
    const { token } = await createOrganization(server);
    expect((await server.request('GET', base, { token })).status).toBe(404);
    expect((await server.request('GET', `${base}/${rule.id}`, { token })).status).toBe(404);
    expect(
      (await server.request('PATCH', `${base}/${rule.id}`, { token, body: { isDisabled: true } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `${base}/${rule.id}`, { token })).status).toBe(404);
    const valid = {
      conditions: [{ conditionType: 'description_is', value: ['y'] }],
      actions: classAction(),
    };
    expect((await server.request('POST', base, { token, body: valid })).status).toBe(404);
    expect((await server.request('GET', `${base}/${rule.id}`)).body.rule.isDisabled).toBe(false);
  });

  it('answers 404 for unknown rules and workspaces', async () => {
    expect((await server.request('GET', `${base}/${MISSING_ID}`)).status).toBe(404);
    expect((await server.request('PATCH', `${base}/${MISSING_ID}`, { body: {} })).status).toBe(404);
    expect(
      (await server.request('GET', `/platform/v1/workspaces/${MISSING_ID}/transaction-rules`))
        .status,
    ).toBe(404);
  });
});
