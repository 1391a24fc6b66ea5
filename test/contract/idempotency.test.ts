import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/platform/domain/errors.js';
import { compileRoute, RequestPipeline } from '../../src/platform/http/pipeline.js';
import { RouteTable } from '../../src/platform/http/routeTable.js';
import { openTransactionOf } from '../../src/platform/store/sql.js';
import { createEntity } from '../helpers/ledger.js';
import { createOrganization, errorOf, startServer, type TestServer } from '../helpers/server.js';

describe('Idempotency-Key (local-platform.md §2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const create = (key: string, name: string, token?: string) =>
    server.request('POST', '/platform/v1/workspaces', {
      body: { name },
      headers: { 'idempotency-key': key },
      ...(token && { token }),
    });

  const workspaceCount = async () =>
    (await server.request('GET', '/platform/v1/workspaces')).body.pagination.total as number;

  it('replays the stored status, headers and body, marked Idempotent-Replayed', async () => {
    const before = await workspaceCount();
    const first = await create('replay-1', 'Replayed Ltd');
    const second = await create('replay-1', 'Replayed Ltd');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await workspaceCount()).toBe(before + 1);
  });

  it('replays a large answer byte for byte (it is stored deflated)', async () => {
    const ledger = await createEntity(server);
    const cash = await ledger.account('Cash', 'Cash');
    const sales = await ledger.account('Sales', 'Income');
    const bulk = () =>
      server.request('POST', `${ledger.base}/journal-entries/bulk`, {
        body: {
          journalEntries: Array.from({ length: 40 }, (_, i) =>
            ledger.entry('2026-02-03', cash.id, sales.id, i + 1, { memo: `Sale ${i} é` }),
          ),
        },
        headers: { 'idempotency-key': 'replay-large' },
      });
    const first = await bulk();
    const second = await bulk();
    expect(first.status).toBe(201);
    expect(first.text.length).toBeGreaterThan(10_000);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    const listed = await server.request('GET', `${ledger.base}/journal-entries?limit=100`);
    expect(listed.body.pagination.total).toBe(40);
  });

  it('replays a stored 4xx too, with its original traceId', async () => {
    const first = await create('replay-400', '');
    const second = await create('replay-400', '');
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.traceId).toBe(first.body.traceId);
    expect(second.headers.get('x-request-id')).toBe(first.headers.get('x-request-id'));
  });

  it('answers 422 for the same key with a different body, method or path', async () => {
    await create('mismatch-1', 'Original');
    const otherBody = await create('mismatch-1', 'Different');
    expect(errorOf(otherBody)).toEqual({
      status: 422,
      message: 'Idempotency-Key was already used for a different request (method, path or body)',
      traceMatches: true,
    });
    const id = (await create('mismatch-1', 'Original')).body.workspace.id;
    const otherMethod = await server.request('DELETE', `/platform/v1/workspaces/${id}`, {
      headers: { 'idempotency-key': 'mismatch-1' },
    });
    expect(otherMethod.status).toBe(422);
    expect((await server.request('GET', `/platform/v1/workspaces/${id}`)).status).toBe(200);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    // Hold the key as a request in flight in this process would.
    const release = server.platform.engine.store.idempotency.hold(
      server.platform.defaultOrganizationId,
      'in-flight-1',
    );
    try {
      const response = await server.request('POST', '/platform/v1/workspaces', {
        body: { name: 'Slow' },
        headers: { 'idempotency-key': 'in-flight-1' },
      });
      expect(errorOf(response)).toEqual({
        status: 409,
        message: 'a request with this Idempotency-Key is still being processed',
        traceMatches: true,
      });
    } finally {
      release!();
    }
    // Once the first is done, the key is free: the request runs.
    const after = await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Slow' },
      headers: { 'idempotency-key': 'in-flight-1' },
    });
    expect(after.status).toBe(201);
  });

  it('scopes keys by organization', async () => {
    const other = await createOrganization(server, 'Scoped Firm');
    const mine = await create('shared-key', 'Mine');
    const theirs = await create('shared-key', 'Theirs', other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.workspace.id).not.toBe(mine.body.workspace.id);
  });

  it.each([
    ['empty', ''],
    ['longer than 255', 'k'.repeat(256)],
  ])('answers 400 for a key that is %s', async (_case, key) => {
    const response = await create(key, 'Keyed');
    expect(errorOf(response)).toEqual({
      status: 400,
      message: 'Idempotency-Key must be 1 to 255 characters',
      traceMatches: true,
    });
  });

  it('accepts a key of exactly 255 characters', async () => {
    expect((await create('k'.repeat(255), 'Long Key')).status).toBe(201);
  });

  it('does not store responses of status 500 or more: a retry runs again', async () => {
    await server.request('POST', '/sandbox/v1/faults', {
      body: {
        mode: 'reject',
        status: 503,
        count: 1,
        method: 'POST',
        pathPrefix: '/platform/v1/workspaces',
      },
    });
    const failed = await create('retry-after-503', 'Eventually');
    expect(failed.status).toBe(503);
    const retried = await create('retry-after-503', 'Eventually');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('an after_commit fault commits, and the retry replays the real response', async () => {
    const before = await workspaceCount();
    await server.request('POST', '/sandbox/v1/faults', {
      body: { mode: 'after_commit', status: 502, count: 1, pathPrefix: '/platform/v1/workspaces' },
    });
    const failed = await create('after-commit-1', 'Committed');
    expect(failed.status).toBe(502);
    const retried = await create('after-commit-1', 'Committed');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await workspaceCount()).toBe(before + 1);
  });

  it('an after_commit fault with status 0 drops the connection after committing', async () => {
    const before = await workspaceCount();
    await server.request('POST', '/sandbox/v1/faults', {
      body: {
        mode: 'after_commit',
        status: 0,
        count: 1,
        method: 'POST',
        pathPrefix: '/platform/v1/workspaces',
      },
    });
    await expect(create('dropped-1', 'Dropped')).rejects.toThrow();
    const retried = await create('dropped-1', 'Dropped');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await workspaceCount()).toBe(before + 1);
  });

  it('leaves requests without a key alone', async () => {
    const first = await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Twice' },
    });
    const second = await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Twice' },
    });
    expect(first.body.workspace.id).not.toBe(second.body.workspace.id);
  });
});

describe('sandbox faults (local-platform.md §4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('counts uses, matches method and path prefix, and only for its organization', async () => {
    const created = await server.request('POST', '/sandbox/v1/faults', {
      body: {
        mode: 'reject',
        status: 500,
        count: 2,
        method: 'get',
        pathPrefix: '/platform/v1/workspaces',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.fault).toMatchObject({
      method: 'GET',
      pathPrefix: '/platform/v1/workspaces',
      mode: 'reject',
      status: 500,
      count: 2,
      remaining: 2,
    });
    const other = await createOrganization(server);
    expect(
      (await server.request('GET', '/platform/v1/workspaces', { token: other.token })).status,
    ).toBe(200);
    expect(
      (await server.request('POST', '/platform/v1/workspaces', { body: { name: 'P' } })).status,
    ).toBe(201);
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(500);
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(500);
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(200);
  });

  it('a 429 fault carries Retry-After; DELETE clears every fault', async () => {
    await server.request('POST', '/sandbox/v1/faults', {
      body: { mode: 'reject', status: 429, count: 5 },
    });
    const limited = await server.request('GET', '/platform/v1/workspaces');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await server.request('DELETE', '/sandbox/v1/faults')).status).toBe(200);
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(200);
  });

  it.each([0, 7])(
    'a 429 fault with retryAfter %i says so, rejected and after the commit',
    async (retryAfter) => {
      for (const mode of ['reject', 'after_commit']) {
        const created = await server.request('POST', '/sandbox/v1/faults', {
          body: { mode, status: 429, count: 1, retryAfter },
        });
        expect(created.body.fault).toMatchObject({ mode, status: 429, retryAfter });
        const limited = await server.request('GET', '/platform/v1/workspaces');
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toBe(String(retryAfter));
      }
    },
  );

  it.each([
    [
      { mode: 'reject', status: 0, count: 1 },
      'status 0 (a dropped connection) exists only in after_commit mode',
    ],
    [{ mode: 'later', status: 500, count: 1 }, 'body.mode must be one of reject, after_commit'],
    [
      { mode: 'reject', status: 404, count: 1 },
      'body.status must be one of 0, 429, 500, 502, 503, 504',
    ],
    [{ mode: 'reject', status: 500, count: 0 }, 'body.count must be >= 1'],
    [{ mode: 'reject', status: 429, count: 1, retryAfter: -1 }, 'body.retryAfter must be >= 0'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await server.request('POST', '/sandbox/v1/faults', { body });
    expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
  });
});

describe('rate limit (local-platform.md §2)', () => {
  let server: TestServer;
  // The limiter's clock: moved by the test, never waited for.
  let nowMs = Date.parse('2026-03-15T12:00:00Z');
  beforeAll(async () => {
    server = await startServer({ rateLimitPerSecond: 1, now: () => nowMs });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After and RateLimit headers once the bucket (2 × rate) is empty', async () => {
    const first = await server.request('GET', '/platform/v1/workspaces');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"organization";q=2;w=2');
    expect(first.headers.get('ratelimit')).toMatch(/^"organization";r=1;t=\d+$/);
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(200);
    const limited = await server.request('GET', '/platform/v1/workspaces');
    expect(errorOf(limited)).toEqual({
      status: 429,
      message: 'too many requests: slow down and retry after the given seconds',
      traceMatches: true,
    });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit')).toBe('"organization";r=0;t=1');
  });

  it('limits each organization on its own', async () => {
    const other = await createOrganization(server);
    const response = await server.request('GET', '/platform/v1/workspaces', { token: other.token });
    expect(response.status).toBe(200);
  });

  it('refills over time', async () => {
    nowMs += 1100;
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(200);
  });
});

describe('a keyed write and its idempotency record commit together', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  /** A route of the pipeline's own, whose handler writes a workspace then does `then`. */
  const probe = (then: () => unknown) => {
    const table = new RouteTable();
    const seen: { inTransaction: boolean }[] = [];
    table.post(
      '/probe',
      {
        config: { auth: 'organization' },
        schema: {
          body: Type.Object({ name: Type.String() }),
          response: { 201: Type.Object({ id: Type.String() }) },
        },
      },
      async (request) => {
        const { engine } = server.platform;
        seen.push({ inTransaction: openTransactionOf(engine.store.database) !== undefined });
        const workspace = await engine.workspaces.create(request.organizationId, {
          name: request.body.name,
        });
        then();
        return { id: workspace.id };
      },
    );
    const pipeline = new RequestPipeline(server.platform.engine, 'admin');
    const compiled = compileRoute(table.routes[0]!);
    const post = (name: string, key?: string) =>
      pipeline.answer(compiled, {
        organizationId: server.platform.defaultOrganizationId,
        method: 'POST',
        url: '/probe',
        traceId: randomUUID(),
        idempotencyKey: key,
        rawBody: JSON.stringify({ name }),
        parts: { params: {}, querystring: {}, body: { name } },
        accept: '',
      });
    return { post, seen };
  };
  const workspaceNamed = async (name: string) =>
    (await server.request('GET', '/platform/v1/workspaces?limit=100')).body.data.some(
      (w: { name: string }) => w.name === name,
    );

  it('runs a keyed handler inside the transaction that records its answer, and answers after it', async () => {
    const { post, seen } = probe(() => {});
    const answer = await post('Probe One', 'probe-1');
    expect(answer.status).toBe(201);
    expect(seen).toEqual([{ inTransaction: true }]);
    expect(openTransactionOf(server.platform.engine.store.database)).toBeUndefined();
    const replay = await post('Probe One', 'probe-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(answer.body);
    // Without a key, no transaction of the pipeline's own.
    await post('Probe Two');
    expect(seen[1]).toEqual({ inTransaction: false });
  });

  it('rolls the write back when the handler fails after it, and keeps the 4xx for the key', async () => {
    const { post } = probe(() => {
      throw new DomainError('conflict', 'changed my mind');
    });
    const answer = await post('Rolled Back', 'probe-2');
    expect(answer.status).toBe(409);
    expect(await workspaceNamed('Rolled Back')).toBe(false);
    const replay = await post('Rolled Back', 'probe-2');
    expect(replay.status).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await workspaceNamed('Rolled Back')).toBe(false);
  });

  it('forgets the key of a request that failed with a 5xx, so that its retry runs', async () => {
    let fail = true;
    const { post } = probe(() => {
      if (fail) throw new Error('a bug');
    });
    expect((await post('Retried', 'probe-3')).status).toBe(500);
    expect(await workspaceNamed('Retried')).toBe(false);
    fail = false;
    const retry = await post('Retried', 'probe-3');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await workspaceNamed('Retried')).toBe(true);
  });

  it('finds the record of a keyed write done when the write is in (no "in flight" left behind)', async () => {
    const ledger = await createEntity(server);
    const cash = await ledger.account('Cash', 'Cash');
    const sales = await ledger.account('Sales', 'Income');
    const response = await server.request('POST', `${ledger.base}/journal-entries`, {
      body: ledger.entry('2026-01-02', cash.id, sales.id, 5),
      headers: { 'idempotency-key': 'together-1' },
    });
    expect(response.status, response.text).toBe(201);
    const row = await server.platform.engine.store.database.sql.get(
      "SELECT state, status FROM idempotency_keys WHERE key = 'together-1'",
    );
    expect(row).toEqual({ state: 'done', status: 201 });
  });
});
