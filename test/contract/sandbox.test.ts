import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createWorkspace,
  errorOf,
  startServer,
  type TestServer,
} from '../helpers/server.js';

describe('sandbox control plane (local-platform.md §4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ adminToken: 'admin-secret' });
  });
  afterAll(() => server.close());

  describe('POST /sandbox/v1/organizations', () => {
    it('creates an organization with a working token (admin token)', async () => {
      const response = await server.request('POST', '/sandbox/v1/organizations', {
        body: { name: 'Ledger & Co' },
        token: 'admin-secret',
      });
      expect(response.status).toBe(201);
      expect(response.body.organization).toMatchObject({ name: 'Ledger & Co' });
      expect(Object.keys(response.body.organization).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(response.body.token).toMatch(/^books_org_[A-Za-z0-9_-]{43}$/);
      const list = await server.request('GET', '/platform/v1/workspaces', {
        token: response.body.token,
      });
      expect(list.status).toBe(200);
    });

    it.each([
      ['an organization token', undefined],
      ['no token', null],
      ['a wrong admin token', 'admin-secreT'],
    ])('answers 401 with %s', async (_case, token) => {
      const response = await server.request('POST', '/sandbox/v1/organizations', {
        body: { name: 'Nope' },
        token,
      });
      expect(errorOf(response)).toEqual({
        status: 401,
        message: 'a valid admin token is required',
        traceMatches: true,
      });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('answers 400 without a name', async () => {
      const response = await server.request('POST', '/sandbox/v1/organizations', {
        body: {},
        token: 'admin-secret',
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'body.name is required',
        traceMatches: true,
      });
    });
  });

  describe('GET /sandbox/v1/workspaces/{id}', () => {
    it('answers the workspace with its flags (what an import reads to keep codes)', async () => {
      const workspace = await createWorkspace(server, 'Read Flags');
      await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { customChartOfAccounts: true },
      });
      const response = await server.request('GET', `/sandbox/v1/workspaces/${workspace.id}`);
      expect(response.status).toBe(200);
      expect(response.body.workspace).toEqual({
        ...workspace,
        customChartOfAccounts: true,
        billingOwner: 'organization',
        externalUsers: 0,
        ruleGenerationEligible: true,
      });
    });

    it('answers 404 for a workspace of another organization, and for a bad id', async () => {
      const other = await createOrganization(server);
      const workspace = await createWorkspace(server, 'Theirs');
      for (const [path, token] of [
        [`/sandbox/v1/workspaces/${workspace.id}`, other.token],
        ['/sandbox/v1/workspaces/not-a-uuid', undefined],
      ] as const) {
        const response = await server.request('GET', path, { ...(token && { token }) });
        expect(errorOf(response)).toMatchObject({ status: 404, traceMatches: true });
      }
    });
  });

  describe('PATCH /sandbox/v1/workspaces/{id}', () => {
    it('sets the flags and answers the workspace with them', async () => {
      const workspace = await createWorkspace(server, 'Flagged');
      const response = await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { customChartOfAccounts: true, ruleGenerationEligible: false },
      });
      expect(response.status).toBe(200);
      expect(response.body.workspace).toEqual({
        ...workspace,
        customChartOfAccounts: true,
        billingOwner: 'organization',
        externalUsers: 0,
        ruleGenerationEligible: false,
      });
      const again = await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { billingOwner: 'client', externalUsers: 3 },
      });
      expect(again.body.workspace).toMatchObject({
        customChartOfAccounts: true,
        billingOwner: 'client',
        externalUsers: 3,
        ruleGenerationEligible: false,
      });
      // The platform API's workspace shape stays as documented.
      const plain = await server.request('GET', `/platform/v1/workspaces/${workspace.id}`);
      expect(plain.body.workspace).toEqual(workspace);
    });

    it.each([
      [{ billingOwner: 'nobody' }, 'body.billingOwner must be one of organization, client'],
      [{ externalUsers: -1 }, 'body.externalUsers must be >= 0'],
      [{ externalUsers: 1.5 }, 'body.externalUsers must be integer'],
      [{ customChartOfAccounts: 'yes' }, 'body.customChartOfAccounts must be boolean'],
    ])('answers 400 for %j', async (body, message) => {
      const workspace = await createWorkspace(server, 'Bad Flags');
      const response = await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body,
      });
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('answers 404 for an unknown workspace', async () => {
      const response = await server.request(
        'PATCH',
        '/sandbox/v1/workspaces/00000000-0000-4000-8000-000000000000',
        {
          body: { externalUsers: 1 },
        },
      );
      expect(response.status).toBe(404);
    });
  });

  describe('entities', () => {
    let workspaceId: string;
    beforeAll(async () => {
      workspaceId = (await createWorkspace(server, 'Entity Home')).id;
    });

    it('creates, lists, reads and updates an entity', async () => {
      const created = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspaceId}/entities`,
        {
          body: { name: ' Main Street Bakery ', bookkeepingStartDate: '2026-01-01' },
        },
      );
      expect(created.status).toBe(201);
      const entity = created.body.entity;
      expect(entity).toEqual({
        id: expect.any(String),
        workspaceId,
        name: 'Main Street Bakery',
        bookkeepingStartDate: '2026-01-01',
        lockDate: null,
        fiscalYearStart: '01-01',
        accrualLedgerOpen: false,
        createdAt: expect.stringMatching(/Z$/),
      });
      await server.request('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
        body: { name: 'Second' },
      });

      const list = await server.request(
        'GET',
        `/sandbox/v1/workspaces/${workspaceId}/entities?limit=1`,
      );
      expect(list.status).toBe(200);
      expect(list.body.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
      expect(list.body.data).toEqual([entity]);

      const read = await server.request('GET', `/sandbox/v1/entities/${entity.id}`);
      expect(read.body.entity).toEqual(entity);

      const locked = await server.request('PATCH', `/sandbox/v1/entities/${entity.id}`, {
        body: { lockDate: '2026-03-31', name: 'Main St Bakery' },
      });
      expect(locked.status).toBe(200);
      expect(locked.body.entity).toEqual({
        ...entity,
        name: 'Main St Bakery',
        lockDate: '2026-03-31',
      });

      const moved = await server.request('PATCH', `/sandbox/v1/entities/${entity.id}`, {
        body: { bookkeepingStartDate: '2025-07-01', lockDate: null },
      });
      expect(moved.body.entity).toMatchObject({
        bookkeepingStartDate: '2025-07-01',
        lockDate: null,
        name: 'Main St Bakery',
      });
    });

    it('opens the accrual ledger, once and for all', async () => {
      const { body } = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspaceId}/entities`,
        {
          body: { name: 'Accrual Co' },
        },
      );
      const opened = await server.request(
        'POST',
        `/sandbox/v1/entities/${body.entity.id}/ledgers/accrual/open`,
      );
      expect(opened.status).toBe(200);
      expect(opened.body.entity.accrualLedgerOpen).toBe(true);
      const again = await server.request(
        'POST',
        `/sandbox/v1/entities/${body.entity.id}/ledgers/accrual/open`,
      );
      expect(again.body.entity.accrualLedgerOpen).toBe(true);
    });

    it.each([
      [{}, 'body.name is required'],
      [{ name: '' }, 'name must not be empty'],
      [
        { name: 'x', bookkeepingStartDate: '2026-02-30' },
        'body.bookkeepingStartDate must be a valid date (YYYY-MM-DD) or null',
      ],
      [
        { name: 'x', bookkeepingStartDate: '01/02/2026' },
        'body.bookkeepingStartDate must be a valid date (YYYY-MM-DD) or null',
      ],
    ])('answers 400 on create for %j', async (body, message) => {
      const response = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspaceId}/entities`,
        { body },
      );
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('answers 400 for a lock date that is not a calendar day', async () => {
      const { body } = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspaceId}/entities`,
        {
          body: { name: 'Bad Lock' },
        },
      );
      const response = await server.request('PATCH', `/sandbox/v1/entities/${body.entity.id}`, {
        body: { lockDate: '2026-13-01' },
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('body.lockDate must be a valid date (YYYY-MM-DD) or null');
    });

    it("reads another organization's entity, and workspace, as 404", async () => {
      const { body } = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspaceId}/entities`,
        {
          body: { name: 'Private' },
        },
      );
      const other = await createOrganization(server);
      const token = other.token;
      expect(
        (await server.request('GET', `/sandbox/v1/entities/${body.entity.id}`, { token })).status,
      ).toBe(404);
      expect(
        (
          await server.request('PATCH', `/sandbox/v1/entities/${body.entity.id}`, {
            token,
            body: { name: 'Mine' },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await server.request(
            'POST',
            `/sandbox/v1/entities/${body.entity.id}/ledgers/accrual/open`,
            { token },
          )
        ).status,
      ).toBe(404);
      expect(
        (await server.request('GET', `/sandbox/v1/workspaces/${workspaceId}/entities`, { token }))
          .status,
      ).toBe(404);
      expect(
        (
          await server.request('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
            token,
            body: { name: 'x' },
          })
        ).status,
      ).toBe(404);
    });
  });
});
