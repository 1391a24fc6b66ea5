import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedPlatform, type EmbeddedPlatform } from '../../src/platform/embedded.js';
import { platformRoutes } from '../../src/platform/http/routes/index.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { MISSING_ID } from '../helpers/server.js';

/**
 * The embedded CLI answers through the dispatcher, `books serve` through Fastify: the same
 * script of requests, against a fresh platform each way, must get the same answers (ids, times
 * and trace ids aside).
 */
const ORG_TOKEN = `books_org_${'p'.repeat(43)}`;
const ADMIN_TOKEN = `books_admin_${'a'.repeat(32)}`;

interface Exchange {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Sent without the organization token; `admin`: with the admin token. */
  token?: 'none' | 'admin' | 'wrong';
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Send = (exchange: Exchange) => Promise<Answer>;

function headersOf(exchange: Exchange): Record<string, string> {
  const token =
    exchange.token === 'none'
      ? undefined
      : exchange.token === 'admin'
        ? ADMIN_TOKEN
        : exchange.token === 'wrong'
          ? `books_org_${'w'.repeat(43)}`
          : ORG_TOKEN;
  return {
    ...(token && { authorization: `Bearer ${token}` }),
    ...(exchange.body !== undefined && { 'content-type': 'application/json' }),
    ...exchange.headers,
  };
}

/** What must agree: status, the headers a client reads, and the body. */
function comparable(exchange: Exchange, answer: Answer, ids: Map<string, string>) {
  const name = (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
        return ids.get(id)!;
      })
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/whsec_[A-Za-z0-9+/=]+/g, '<secret>')
      .replace(/books_org_[A-Za-z0-9_-]+/g, '<token>');
  const kept = ['content-type', 'idempotent-replayed', 'retry-after', 'www-authenticate'];
  const headers = Object.fromEntries(
    kept.filter((h) => answer.headers[h] !== undefined).map((h) => [h, answer.headers[h]]),
  );
  const traceMatches =
    answer.status < 400 ||
    (JSON.parse(answer.body) as { traceId?: string }).traceId === answer.headers['x-request-id'];
  return {
    request: name(`${exchange.method} ${exchange.path}`),
    status: answer.status,
    headers,
    body: name(answer.body),
    traceMatches,
  };
}

async function run(send: Send, script: (send: Send) => Promise<Exchange[]>) {
  const ids = new Map<string, string>();
  const answers: ReturnType<typeof comparable>[] = [];
  const recorded: Send = async (exchange) => {
    const answer = await send(exchange);
    answers.push(comparable(exchange, answer, ids));
    return answer;
  };
  for (const exchange of await script(recorded)) await recorded(exchange);
  return answers;
}

const json = (value: unknown) => JSON.stringify(value);
const idOf = (answer: Answer, key: string) =>
  (JSON.parse(answer.body) as Record<string, { id: string }>)[key]!.id;

/** A day of a small firm's books, and the ways a request can be wrong. */
async function bookkeepingScript(send: Send): Promise<Exchange[]> {
  const post = (path: string, body: unknown, headers?: Record<string, string>) =>
    send({ method: 'POST', path, body: json(body), ...(headers && { headers }) });
  const workspace = idOf(
    await post('/platform/v1/workspaces', { name: 'Parity Books' }),
    'workspace',
  );
  const entity = idOf(
    await post(`/sandbox/v1/workspaces/${workspace}/entities`, { name: 'Corner Shop' }),
    'entity',
  );
  const base = `/platform/v1/entities/${entity}`;
  const cash = idOf(
    await post(`${base}/chart-of-accounts`, { name: 'Cash', type: 'Cash' }),
    'account',
  );
  const sales = idOf(
    await post(`${base}/chart-of-accounts`, { name: 'Sales', type: 'Income' }),
    'account',
  );
  const entry = (day: string, amount: number) => ({
    date: day,
    memo: 'Till',
    lines: [
      { accountId: cash, debitAmount: amount },
      { accountId: sales, creditAmount: amount },
    ],
  });
  const keyed = { 'idempotency-key': 'parity-1' };
  const created = await post(`${base}/journal-entries`, entry('2026-01-05', 120.5), keyed);
  const entryId = idOf(created, 'journalEntry');
  await post(`${base}/journal-entries`, entry('2026-01-05', 120.5), keyed); // replayed
  await post(`${base}/journal-entries`, entry('2026-01-06', 1), keyed); // 422: another body
  await post(`${base}/journal-entries/bulk`, {
    journalEntries: [entry('2026-01-07', 10), entry('2026-01-08', 20.25)],
  });
  await post(`${base}/journal-entries`, {
    date: '2026-01-09',
    lines: [{ accountId: cash, debitAmount: 5 }],
  }); // unbalanced
  const long = 'x'.repeat(600);
  return [
    { method: 'GET', path: '/platform/v1/workspaces' },
    { method: 'GET', path: '/platform/v1/workspaces?limit=1&offset=0' },
    { method: 'GET', path: '/platform/v1/workspaces?limit=0x10' },
    { method: 'GET', path: '/platform/v1/workspaces?limit=100000' },
    { method: 'GET', path: `/platform/v1/workspaces/${workspace}` },
    { method: 'GET', path: `/sandbox/v1/workspaces/${workspace}` },
    { method: 'GET', path: `${base}/chart-of-accounts` },
    { method: 'GET', path: `${base}/journal-entries?startDate=2026-01-01&endDate=2026-01-31` },
    { method: 'GET', path: `${base}/journal-entries/${entryId}` },
    {
      method: 'PATCH',
      path: `${base}/journal-entries/${entryId}`,
      body: json({ memo: 'Till, corrected' }),
    },
    { method: 'GET', path: `${base}/reports/trial-balance?asOfDate=2026-01-31` },
    {
      method: 'GET',
      path: `${base}/reports/profit-and-loss?startDate=2026-01-01&endDate=2026-01-31`,
    },
    { method: 'GET', path: `${base}/reports/balance-sheet?asOfDate=2026-01-31` },
    { method: 'GET', path: `${base}/reports/cash-flow?startDate=2026-01-01&endDate=2026-01-31` },
    {
      method: 'GET',
      path: `${base}/reports/general-ledger?startDate=2026-01-01&endDate=2026-01-31`,
    },
    { method: 'GET', path: `${base}/reports/trial-balance?asOfDate=2026-02-30` },
    { method: 'POST', path: `${base}/accounting-migration` },
    { method: 'GET', path: `${base}/accounting-migration` },
    { method: 'DELETE', path: `${base}/journal-entries/${entryId}` },
    { method: 'GET', path: `${base}/journal-entries/${entryId}` },
    // Who is calling.
    { method: 'GET', path: '/platform/v1/workspaces', token: 'none' },
    { method: 'GET', path: '/platform/v1/workspaces', token: 'wrong' },
    { method: 'POST', path: '/sandbox/v1/organizations', body: json({ name: 'Other' }) },
    {
      method: 'POST',
      path: '/sandbox/v1/organizations',
      body: json({ name: 'Other' }),
      token: 'admin',
    },
    // Malformed requests.
    { method: 'GET', path: '/platform/v1/nowhere' },
    { method: 'GET', path: '/platform/v1/workspaces/' },
    { method: 'GET', path: '/platform/v1/workspaces/%E0%A4%A' },
    { method: 'GET', path: `/platform/v1/workspaces/${long}` },
    { method: 'POST', path: '/platform/v1/workspaces', body: '{"name": ' },
    { method: 'POST', path: '/platform/v1/workspaces', body: '{"__proto__": {"x": 1}}' },
    { method: 'POST', path: '/platform/v1/workspaces', body: json({ name: 7 }) },
    { method: 'POST', path: '/platform/v1/workspaces', body: '' },
    {
      method: 'POST',
      path: '/platform/v1/workspaces',
      body: json({ name: 'x' }),
      headers: { 'content-type': 'text/plain' },
    },
    {
      method: 'POST',
      path: '/platform/v1/workspaces',
      body: json({ name: 'y'.repeat(6 * 1024 * 1024) }),
    },
    {
      method: 'POST',
      path: '/platform/v1/workspaces',
      body: json({ name: 'keyed' }),
      headers: { 'idempotency-key': 'k'.repeat(300) },
    },
    // An injected fault, answered after the write commits.
    {
      method: 'POST',
      path: '/sandbox/v1/faults',
      body: json({
        mode: 'after_commit',
        status: 503,
        count: 1,
        pathPrefix: '/platform/v1/workspaces',
      }),
    },
    {
      method: 'POST',
      path: '/platform/v1/workspaces',
      body: json({ name: 'Faulted' }),
      headers: { 'idempotency-key': 'fault-1' },
    },
    {
      method: 'POST',
      path: '/platform/v1/workspaces',
      body: json({ name: 'Faulted' }),
      headers: { 'idempotency-key': 'fault-1' },
    },
    { method: 'DELETE', path: `/platform/v1/workspaces/${workspace}` },
    { method: 'GET', path: `/platform/v1/workspaces/${workspace}` },
  ];
}

/** Every route, with ids that name nothing and an empty object for a body. */
async function everyRouteScript(): Promise<Exchange[]> {
  return platformRoutes({} as never).map((route) => ({
    method: route.method,
    path: route.url.replace(/:\w+/g, MISSING_ID),
    ...(route.method !== 'GET' && { body: '{}' }),
    ...(route.auth === 'admin' && { token: 'admin' as const }),
  }));
}

describe('the embedded dispatcher answers as `books serve` does', () => {
  let served: Platform;
  let embedded: EmbeddedPlatform;
  const options = { database: ':memory:', orgToken: ORG_TOKEN, adminToken: ADMIN_TOKEN };
  beforeAll(async () => {
    served = await createPlatform({ ...options, rateLimitPerSecond: 0 });
    embedded = await openEmbeddedPlatform({ ...options, rateLimitPerSecond: 0 });
  });
  afterAll(async () => {
    await served.close();
    await embedded.close();
  });

  const viaFastify: Send = async (exchange) => {
    const response = await served.app.inject({
      method: exchange.method as 'GET',
      url: exchange.path,
      headers: headersOf(exchange),
      ...(exchange.body !== undefined && { payload: exchange.body }),
    });
    return {
      status: response.statusCode,
      headers: Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
      ),
      body: response.body,
    };
  };
  const viaDispatcher: Send = async (exchange) => {
    const { stream, ...response } = await embedded.dispatch({
      method: exchange.method,
      path: exchange.path,
      headers: headersOf(exchange),
      ...(exchange.body !== undefined && { body: exchange.body }),
    });
    // The general ledger is written piece by piece; its text is the pieces together.
    if (stream) for await (const piece of stream) response.body += piece;
    return response;
  };

  it('on a day of bookkeeping, and on every way a request can be wrong', async () => {
    const expected = await run(viaFastify, bookkeepingScript);
    const actual = await run(viaDispatcher, bookkeepingScript);
    expect(actual).toEqual(expected);
    // The script reached what it means to: successes, replays and each kind of error.
    const statuses = new Set(expected.map((answer) => answer.status));
    for (const status of [200, 201, 400, 401, 404, 413, 415, 422, 503]) {
      expect(statuses, `status ${status}`).toContain(status);
    }
    expect(expected.some((answer) => answer.headers['idempotent-replayed'] === 'true')).toBe(true);
  });

  it('on every route, called with ids that name nothing', async () => {
    const expected = await run(viaFastify, everyRouteScript);
    const actual = await run(viaDispatcher, everyRouteScript);
    expect(actual).toEqual(expected);
    expect(expected.length).toBe(platformRoutes({} as never).length);
  });
});
