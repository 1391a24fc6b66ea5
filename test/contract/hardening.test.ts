import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKind, webhookTargetProblem } from '../../src/platform/domain/webhooks.js';
import { guardedLookup } from '../../src/platform/engine/webhookSender.js';
import { createEntity } from '../helpers/ledger.js';
import { errorOf, startServer, type TestServer } from '../helpers/server.js';

/** Webhook targets, thrown-away tokens and the admin route's keys, on a real server. */
describe('webhook targets', () => {
  let strict: TestServer;
  let lenient: TestServer;
  beforeAll(async () => {
    strict = await startServer();
    lenient = await startServer({ allowPrivateWebhooks: true });
  });
  afterAll(async () => {
    await strict.close();
    await lenient.close();
  });
  const register = (server: TestServer, url: string) =>
    server.request('POST', '/sandbox/v1/webhook-endpoints', { body: { url } });

  it.each([
    ['https://169.254.169.254/latest/meta-data', 'a cloud metadata service'],
    ['https://[fd00:ec2::254]/', 'a cloud metadata service'],
    ['https://metadata.google.internal/computeMetadata/v1', 'a cloud metadata service'],
    ['https://[::ffff:169.254.169.254]/', 'a cloud metadata service'],
    ['https://169.254.10.1/hook', 'a link-local address'],
    ['https://[fe80::1]/hook', 'a link-local address'],
    ['https://0.0.0.0/hook', 'a unspecified address'],
  ])('refuses %s always', async (url, why) => {
    for (const server of [strict, lenient]) {
      const response = await register(server, url);
      expect(response.status, url).toBe(400);
      expect(response.body.message).toContain(why);
    }
  });

  it.each([
    'https://10.1.2.3/hook',
    'https://172.20.0.9/hook',
    'https://192.168.1.20/hook',
    'https://[fd12:3456::1]/hook',
    'https://100.64.1.1/hook',
  ])('refuses the private %s unless serve allows private webhooks', async (url) => {
    const refused = await register(strict, url);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('--allow-private-webhooks');
    expect((await register(lenient, url)).status).toBe(201);
  });

  it('takes loopback (local development) and public addresses', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'https://93.184.215.14/x',
    ])
      expect((await register(strict, url)).status, url).toBe(201);
  });

  it('checks every address a name resolves to, at each delivery (DNS rebinding)', async () => {
    const lookup = guardedLookup(false);
    const resolve = (host: string) =>
      new Promise<string>((done) =>
        lookup(host, {}, (error, address) => done(error ? error.message : String(address))),
      );
    expect(await resolve('169.254.169.254')).toMatch(/resolves to .*metadata/);
    expect(await resolve('10.0.0.7')).toMatch(/private address/);
    expect(await resolve('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKind('::ffff:10.0.0.1')).toBe('private');
    expect(webhookTargetProblem('192.168.0.1', true)).toBeUndefined();
  });
});

describe('wrong tokens and the admin route', () => {
  let server: TestServer;
  let clock = 1_000_000;
  beforeAll(async () => {
    server = await startServer({ authFailuresPerMinute: 3, now: () => clock });
  });
  afterAll(() => server.close());

  it('answers wrong tokens from one address 429 past the limit, for a minute; the right token and no token are not held back', async () => {
    const wrong = () =>
      server.request('GET', '/platform/v1/workspaces', { token: 'not-the-token' });
    for (let i = 0; i < 5; i += 1) {
      expect((await server.request('GET', '/platform/v1/workspaces', { token: null })).status).toBe(
        401,
      );
    }
    for (let i = 0; i < 3; i += 1) expect((await wrong()).status).toBe(401);
    const throttled = await wrong();
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(throttled.body).toMatchObject({
      message: expect.stringContaining('failed authentications'),
    });
    expect((await server.request('GET', '/platform/v1/workspaces')).status).toBe(200);
    // Admin tokens count the same.
    expect(
      (
        await server.request('POST', '/sandbox/v1/organizations', {
          token: 'wrong',
          body: { name: 'x' },
        })
      ).status,
    ).toBe(429);
    clock += 60_000;
    expect((await wrong()).status).toBe(401);
  });

  it('honors Idempotency-Key on the admin route', async () => {
    const create = (name: string, key: string) =>
      server.request('POST', '/sandbox/v1/organizations', {
        token: server.adminToken,
        body: { name },
        headers: { 'idempotency-key': key },
      });
    const first = await create('Keyed Firm', 'admin-key-1');
    expect(first.status).toBe(201);
    const again = await create('Keyed Firm', 'admin-key-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.organization.id).toBe(first.body.organization.id);
    expect((await create('Another Firm', 'admin-key-1')).status).toBe(422);
    // An organization's own key of the same text is its own.
    const orgKeyed = await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Same key' },
      headers: { 'idempotency-key': 'admin-key-1' },
    });
    expect(orgKeyed.status).toBe(201);
  });
});

/** Text no database column holds, and what a load balancer asks. */
describe('text the books cannot hold, and health checks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answers 400 for a NUL character in a body or a query, on either database, and keeps nothing', async () => {
    const before = (await server.request('GET', '/platform/v1/workspaces')).body.pagination.total;
    for (const rawBody of ['{"name":"Null\\u0000Ltd"}', '{"name\\u0000":"Nul key"}']) {
      const response = await server.request('POST', '/platform/v1/workspaces', { rawBody });
      expect(response.status, rawBody).toBe(400);
      expect(response.body.message).toBe(
        'request body holds a NUL character (\\u0000), which text in the books cannot hold',
      );
    }
    const keyed = await server.request('POST', '/platform/v1/workspaces', {
      rawBody: '{"name":"Keyed\\u0000"}',
      headers: { 'idempotency-key': 'nul-1' },
    });
    expect(keyed.status).toBe(400);
    const query = await server.request('GET', '/platform/v1/workspaces?limit=10&x=%00');
    expect(query.status).toBe(400);
    expect(query.body.message).toBe(
      'query string holds a NUL character (\\u0000), which text in the books cannot hold',
    );
    const path = await server.request('GET', '/platform/v1/workspaces/%00');
    expect(path.status).toBe(404);
    expect((await server.request('GET', '/platform/v1/workspaces')).body.pagination.total).toBe(
      before,
    );
  });

  it('answers /healthz and /readyz without a token, outside the rate limit', async () => {
    for (const [url, status] of [
      ['/healthz', 'ok'],
      ['/readyz', 'ready'],
    ] as const) {
      const response = await server.request('GET', url, { token: null });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status });
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });
});

describe('sums past what can be counted to the cent', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answers 422 for a report whose sums pass 2^53 cents, on either database, never a rounded figure', async () => {
    const ledger = await createEntity(server);
    const cash = await ledger.account('Vault', 'Cash');
    const equity = await ledger.account('Capital', 'Equity');
    const entry = ledger.entry('2025-01-02', cash.id, equity.id, 999_999_999_999.99);
    const bulk = await server.request('POST', `${ledger.base}/journal-entries/bulk`, {
      body: { journalEntries: Array.from({ length: 100 }, () => entry) },
    });
    expect(bulk.status, bulk.text).toBe(201);
    const report = await server.request(
      'GET',
      `${ledger.base}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
    );
    expect(errorOf(report)).toEqual({
      status: 422,
      message: 'a sum in these books passes what can be counted to the cent (2^53 cents)',
      traceMatches: true,
    });
  });
});
