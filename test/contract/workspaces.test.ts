import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TIMEZONES } from '../../src/api/index.js';
import { createWorkspace, errorOf, startServer, type TestServer } from '../helpers/server.js';

describe('workspaces', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  describe('POST /platform/v1/workspaces', () => {
    it('creates a workspace in America/Los_Angeles by default, trimming the name', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        body: { name: '  Blue Bottle Books  ' },
      });
      expect(response.status).toBe(201);
      const { workspace } = response.body;
      expect(Object.keys(workspace).sort()).toEqual(['createdAt', 'id', 'name', 'timezone']);
      expect(workspace.name).toBe('Blue Bottle Books');
      expect(workspace.timezone).toBe('America/Los_Angeles');
      // Ids are uuid v7 (time-ordered, so id indexes stay append-only).
      expect(workspace.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(workspace.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it.each(WORKSPACE_TIMEZONES)('accepts the timezone %s', async (timezone) => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        body: { name: `In ${timezone}`, timezone },
      });
      expect(response.status).toBe(201);
      expect(response.body.workspace.timezone).toBe(timezone);
    });

    it('ignores unknown properties', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        body: { name: 'Extra', plan: 'enterprise' },
      });
      expect(response.status).toBe(201);
      expect(response.body.workspace.plan).toBeUndefined();
    });

    it.each([
      [{}, 'body.name is required'],
      [{ name: 42 }, 'body.name must be string'],
      [{ name: '   ' }, 'name must not be empty'],
      [{ name: 'n'.repeat(256) }, 'name must be at most 255 characters'],
      [
        { name: 'x', timezone: 'Europe/Paris' },
        /^body\.timezone must be one of America\/New_York, /,
      ],
      [{ name: 'x', timezone: null }, /^body\.timezone must be one of /],
      [[], 'body must be object'],
    ])('answers 400 for %j', async (body, message) => {
      const response = await server.request('POST', '/platform/v1/workspaces', { body });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
      expect(errorOf(response).traceMatches).toBe(true);
    });

    it('accepts a name of exactly 255 characters', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        body: { name: 'n'.repeat(255) },
      });
      expect(response.status).toBe(201);
    });
  });

  describe('GET /platform/v1/workspaces/{id}', () => {
    it('reads a workspace', async () => {
      const created = await createWorkspace(server, 'Readable');
      const response = await server.request('GET', `/platform/v1/workspaces/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body.workspace).toEqual(created);
    });

    it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000'])(
      'answers 404 for %s',
      async (id) => {
        const response = await server.request('GET', `/platform/v1/workspaces/${id}`);
        expect(errorOf(response)).toEqual({
          status: 404,
          message: 'workspace not found',
          traceMatches: true,
        });
      },
    );
  });

  describe('DELETE /platform/v1/workspaces/{id}', () => {
    it('deletes the workspace and everything in it, answering 200 with an empty body', async () => {
      const workspace = await createWorkspace(server, 'Doomed');
      const entity = await server.request(
        'POST',
        `/sandbox/v1/workspaces/${workspace.id}/entities`,
        {
          body: { name: 'Doomed LLC' },
        },
      );
      await server.request('POST', `/platform/v1/workspaces/${workspace.id}/classes`, {
        body: { label: 'Region' },
      });
      const response = await server.request('DELETE', `/platform/v1/workspaces/${workspace.id}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect((await server.request('GET', `/platform/v1/workspaces/${workspace.id}`)).status).toBe(
        404,
      );
      expect(
        (await server.request('GET', `/sandbox/v1/entities/${entity.body.entity.id}`)).status,
      ).toBe(404);
      expect(
        (await server.request('DELETE', `/platform/v1/workspaces/${workspace.id}`)).status,
      ).toBe(404);
    });

    it('answers 400 when the client owns the billing', async () => {
      const workspace = await createWorkspace(server, 'Client Billed');
      await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { billingOwner: 'client' },
      });
      const response = await server.request('DELETE', `/platform/v1/workspaces/${workspace.id}`);
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'workspace billing is owned by the client, not the organization',
        traceMatches: true,
      });
      expect((await server.request('GET', `/platform/v1/workspaces/${workspace.id}`)).status).toBe(
        200,
      );
    });

    it('answers 400 while users from outside the organization are assigned', async () => {
      const workspace = await createWorkspace(server, 'Shared');
      await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { externalUsers: 2 },
      });
      const response = await server.request('DELETE', `/platform/v1/workspaces/${workspace.id}`);
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'users from outside the organization are still assigned to the workspace',
        traceMatches: true,
      });
      await server.request('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
        body: { externalUsers: 0 },
      });
      expect(
        (await server.request('DELETE', `/platform/v1/workspaces/${workspace.id}`)).status,
      ).toBe(200);
    });
  });
});
