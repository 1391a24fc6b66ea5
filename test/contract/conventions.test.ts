import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createWorkspace,
  errorOf,
  startServer,
  type TestServer,
} from '../helpers/server.js';

describe('platform conventions (local-platform.md §2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  describe('authentication', () => {
    it.each([
      ['no Authorization header', null, 'missing bearer token: send Authorization: Bearer <token>'],
      ['an unknown token', 'books_org_nope', 'invalid access token'],
    ])('answers 401 with WWW-Authenticate for %s', async (_case, token, message) => {
      const response = await server.request('GET', '/platform/v1/workspaces', { token });
      expect(errorOf(response)).toEqual({ status: 401, message, traceMatches: true });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('answers 401 for a malformed Authorization header', async () => {
      const response = await server.request('GET', '/platform/v1/workspaces', {
        token: null,
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('checks auth before anything else, even on a bad body', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        token: 'wrong',
        rawBody: '{not json',
      });
      expect(response.status).toBe(401);
    });
  });

  describe('errors', () => {
    it('every error carries traceId equal to X-Request-Id', async () => {
      const response = await server.request('GET', '/platform/v1/workspaces/not-a-uuid');
      expect(response.status).toBe(404);
      expect(response.body.traceId).toMatch(/^[0-9a-f-]{36}$/);
      expect(errorOf(response).traceMatches).toBe(true);
    });

    it('answers 404 with the envelope for an unknown route', async () => {
      const response = await server.request('GET', '/platform/v1/nothing-here');
      expect(errorOf(response)).toEqual({
        status: 404,
        message: 'no route for GET /platform/v1/nothing-here',
        traceMatches: true,
      });
    });

    it('answers 400 for a body that is not JSON', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        rawBody: '{"name":',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^request body is not valid JSON/);
    });

    it('answers 400 for a prototype-poisoning body', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        rawBody: '{"name":"x","__proto__":{"admin":true}}',
      });
      expect(response.status).toBe(400);
    });

    it('answers 415 for a body that is not JSON by content type', async () => {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(errorOf(response)).toEqual({
        status: 415,
        message: 'request body must be application/json',
        traceMatches: true,
      });
    });

    it('answers 413 for a body over 5 MB', async () => {
      const name = 'x'.repeat(5 * 1024 * 1024 + 10);
      const response = await server.request('POST', '/platform/v1/workspaces', { body: { name } });
      expect(errorOf(response)).toEqual({
        status: 413,
        message: 'request body is larger than 5 MB',
        traceMatches: true,
      });
    });

    it('accepts a body just under 5 MB (then judges its content)', async () => {
      const name = 'x'.repeat(5 * 1024 * 1024 - 100);
      const response = await server.request('POST', '/platform/v1/workspaces', { body: { name } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('name must be at most 255 characters');
    });
  });

  describe('odd input answers a 4xx in the envelope, never a 500', () => {
    it.each([
      [
        'GET',
        '/platform/v1/workspaces/%E0%A4%A',
        undefined,
        400,
        'the request path is not valid percent-encoding',
      ],
      [
        'GET',
        `/platform/v1/workspaces/${'a'.repeat(2000)}`,
        undefined,
        404,
        'not found: a path id is longer than any id',
      ],
      ['GET', '/platform/v1/workspaces/%00', undefined, 404, 'workspace not found'],
      [
        'GET',
        '/platform/v1/workspaces?limit=1&limit=2',
        undefined,
        400,
        'query.limit must be an integer',
      ],
      ['POST', '/platform/v1/workspaces', '5', 400, 'body must be object'],
      ['POST', '/platform/v1/workspaces', 'null', 400, 'body must be object'],
      [
        'POST',
        '/platform/v1/workspaces',
        '['.repeat(5000) + ']'.repeat(5000),
        400,
        'body must be object',
      ],
      ['POST', '/platform/v1/workspaces', '', 400, 'body must be object'],
      [
        'PATCH',
        '/sandbox/v1/workspaces/x',
        '{"externalUsers":1e300}',
        400,
        'body.externalUsers must be <= 1000000',
      ],
      [
        'POST',
        '/sandbox/v1/faults',
        '{"mode":"reject","status":500,"count":1e20}',
        400,
        'body.count must be <= 1000000',
      ],
    ])('%s %s %s', async (method, path, rawBody, status, message) => {
      const response = await server.request(method, path, rawBody === undefined ? {} : { rawBody });
      expect(errorOf(response)).toEqual({ status, message, traceMatches: true });
    });

    it('answers malformed HTTP (a truncated body) with the envelope', async () => {
      const port = new URL(server.baseUrl).port;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () =>
          socket.end(
            'POST /platform/v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
              `Authorization: Bearer ${server.orgToken}\r\nContent-Length: 100\r\n\r\n{"name":"w"}`,
          ),
        );
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      const body = JSON.parse(raw.split('\r\n\r\n')[1] ?? '');
      expect(body.message).toBe('the request is not well-formed HTTP');
      expect(raw).toContain(`X-Request-Id: ${body.traceId}`);
    });
  });

  describe('lists', () => {
    beforeAll(async () => {
      for (const name of ['One', 'Two', 'Three']) await createWorkspace(server, name);
    });

    it('defaults to limit 100 and offset 0, and counts all matches', async () => {
      const response = await server.request('GET', '/platform/v1/workspaces');
      expect(response.status).toBe(200);
      expect(response.body.pagination).toEqual({ limit: 100, offset: 0, total: 3 });
      expect(response.body.data.map((w: { name: string }) => w.name)).toEqual([
        'One',
        'Two',
        'Three',
      ]);
    });

    it('pages with limit and offset', async () => {
      const response = await server.request('GET', '/platform/v1/workspaces?limit=1&offset=1');
      expect(response.body.pagination).toEqual({ limit: 1, offset: 1, total: 3 });
      expect(response.body.data.map((w: { name: string }) => w.name)).toEqual(['Two']);
    });

    it('answers an empty page past the end', async () => {
      const response = await server.request('GET', '/platform/v1/workspaces?offset=50');
      expect(response.body).toEqual({ data: [], pagination: { limit: 100, offset: 50, total: 3 } });
    });

    it.each([
      ['limit=0', 'query.limit must be >= 1'],
      ['limit=101', 'query.limit must be <= 100'],
      ['limit=1.5', 'query.limit must be an integer'],
      ['limit=abc', 'query.limit must be an integer'],
      ['limit=', 'query.limit must be an integer'],
      ['limit=0x10', 'query.limit must be an integer'],
      ['offset=-1', 'query.offset must be >= 0'],
      ['offset=1e3', 'query.offset must be an integer'],
    ])('answers 400 for %s', async (query, message) => {
      const response = await server.request('GET', `/platform/v1/workspaces?${query}`);
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });
  });

  describe('book-of-business isolation', () => {
    it("reads another organization's workspace as 404", async () => {
      const mine = await createWorkspace(server, 'Mine');
      const other = await createOrganization(server);
      const asOther = await server.request('GET', `/platform/v1/workspaces/${mine.id}`, {
        token: other.token,
      });
      expect(errorOf(asOther)).toEqual({
        status: 404,
        message: 'workspace not found',
        traceMatches: true,
      });
      const list = await server.request('GET', '/platform/v1/workspaces', { token: other.token });
      expect(list.body.pagination.total).toBe(0);
      const remove = await server.request('DELETE', `/platform/v1/workspaces/${mine.id}`, {
        token: other.token,
      });
      expect(remove.status).toBe(404);
      expect((await server.request('GET', `/platform/v1/workspaces/${mine.id}`)).status).toBe(200);
    });
  });

  it('serves the schemas as an OpenAPI 3.1 document', async () => {
    const response = await server.request('GET', '/openapi.json', { token: null });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const paths = Object.keys(response.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/platform/v1/workspaces',
        '/platform/v1/workspaces/{workspaceId}',
        '/platform/v1/workspaces/{workspaceId}/classes/{classId}',
        '/platform/v1/workspaces/{workspaceId}/transaction-rules/{ruleId}',
        '/sandbox/v1/organizations',
        '/sandbox/v1/entities/{entityId}/ledgers/accrual/open',
      ]),
    );
    const create = response.body.paths['/platform/v1/workspaces'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '429']);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
  });
});
