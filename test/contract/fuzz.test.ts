import net from 'node:net';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '../helpers/ledger.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Hostile and broken requests, generated from `/openapi.json` for every operation, through a
 * real server on a loopback port: bad ids, integer bounds, wrong types, encodings (percent
 * escapes that decode to nothing, lone surrogates), huge and deep values, invalid JSON, wrong
 * content types and headers. Not one may be a 5xx; every 4xx says `{ message, traceId }`.
 */
interface Operation {
  method: string;
  path: string;
  query: string[];
  body?: { properties?: Record<string, { type?: string }> };
}

const LONE_SURROGATE = '%ED%A0%80';
const QUERY_VALUES = [
  '-1',
  '0',
  '1.5',
  '1e309',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '99999999999999999999999999999',
  'NaN',
  'Infinity',
  '',
  'abc',
  '2026-02-30',
  '%00',
  '%ZZ',
  LONE_SURROGATE,
  'x'.repeat(5000),
];
const PATH_VALUES = [
  '00000000-0000-4000-8000-000000000000',
  'x',
  '%00',
  '%ZZ',
  LONE_SURROGATE,
  '%F0%9F%92%A9',
  'y'.repeat(600),
  '..',
];
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const BODIES = [
  '{',
  '[]',
  'null',
  '1',
  '"text"',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{}}}',
  deep(10_000),
  `{"a":${deep(2_000)}}`,
  '{"name":"\\ud800"}',
  '{"name":"\\udfff tail"}',
  '{"name":1e309}',
  '{"name":"ok","extra":1}',
  '\uFEFF{"name":"bom"}',
];
const WRONG_VALUES: unknown[] = [
  null,
  -1,
  1e308,
  -0,
  9_223_372_036_854_775_808,
  '',
  'x'.repeat(70_000),
  '\ud800',
  [],
  {},
  true,
  [[[[[[[[]]]]]]]],
];

describe('hostile requests against every operation', () => {
  let server: TestServer;
  let pool: Pool;
  let operations: Operation[];
  const fives: string[] = [];
  const unexplained: string[] = [];
  let sent = 0;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer();
    pool = new Pool(server.baseUrl, { connections: 4 });
    const books = await createEntity(server, { name: 'Fuzzed Books' });
    const cash = await books.account('Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    const posted = await books.post(books.entry('2026-01-05', cash.id, sales.id, 10));
    ids.workspaceId = books.workspaceId;
    ids.entityId = books.entityId;
    ids.accountId = cash.id;
    ids.journalEntryId = posted.body.journalEntry.id;
    const document = (await server.request('GET', '/openapi.json', { token: null })).body;
    operations = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        operations.push({
          method: method.toUpperCase(),
          path,
          query: (operation.parameters ?? [])
            .filter((p: any) => p.in === 'query')
            .map((p: any) => p.name),
          body: operation.requestBody?.content?.['application/json']?.schema,
        });
      }
    }
  }, 60_000);
  afterAll(async () => {
    await pool.close();
    await server.close();
  });

  /** The path with each parameter a real id where one is known, else the missing one. */
  const pathOf = (operation: Operation, override?: [string, string]) =>
    operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      override && override[0] === name
        ? override[1]
        : (ids[name] ?? '00000000-0000-4000-8000-000000000000'),
    );

  const send = async (
    label: string,
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ) => {
    sent += 1;
    const response = await pool.request({
      method: method as 'GET',
      path,
      headers: {
        authorization: `Bearer ${server.orgToken}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && method !== 'GET' && { body }),
    });
    const text = await response.body.text();
    if (response.statusCode >= 500) fives.push(`${label}: ${response.statusCode} ${text}`);
    else if (response.statusCode >= 400 && response.statusCode !== 404 + 1000) {
      try {
        const parsed = JSON.parse(text);
        if (typeof parsed.message !== 'string' || typeof parsed.traceId !== 'string')
          unexplained.push(`${label}: ${response.statusCode} ${text.slice(0, 200)}`);
      } catch {
        unexplained.push(`${label}: ${response.statusCode} ${text.slice(0, 200)}`);
      }
    }
  };

  it('answers none of them with a 5xx', async () => {
    for (const operation of operations) {
      // Skip what would end the test's own platform: closing it down is not a request's fault.
      if (operation.path.includes('shutdown')) continue;
      const where = `${operation.method} ${operation.path}`;
      const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      for (const name of names) {
        for (const value of PATH_VALUES) {
          await send(
            `${where} ${name}=${value.slice(0, 20)}`,
            operation.method,
            pathOf(operation, [name, value]),
            operation.method === 'GET' ? undefined : '{}',
          );
        }
      }
      for (const name of operation.query) {
        for (const value of QUERY_VALUES) {
          await send(
            `${where} ?${name}=${value.slice(0, 30)}`,
            operation.method,
            `${pathOf(operation)}?${name}=${value}`,
            operation.method === 'GET' ? undefined : '{}',
          );
        }
        await send(
          `${where} ?${name} twice`,
          operation.method,
          `${pathOf(operation)}?${name}=1&${name}=2`,
        );
      }
      if (operation.method === 'GET' || operation.method === 'DELETE') continue;
      for (const body of BODIES) {
        await send(`${where} body ${body.slice(0, 30)}`, operation.method, pathOf(operation), body);
      }
      for (const [type, body] of [
        ['text/plain', '{}'],
        ['application/x-www-form-urlencoded', 'a=1'],
        ['application/json; charset=latin1', '{}'],
        ['multipart/form-data; boundary=x', '--x--'],
      ] as const) {
        await send(`${where} as ${type}`, operation.method, pathOf(operation), body, {
          'content-type': type,
        });
      }
      await send(`${where} key too long`, operation.method, pathOf(operation), '{}', {
        'idempotency-key': 'k'.repeat(300),
      });
      for (const [property, schema] of Object.entries(operation.body?.properties ?? {})) {
        for (const value of WRONG_VALUES) {
          if (schema.type === 'string' && typeof value === 'string' && value.length < 10) continue;
          await send(
            `${where} ${property}=${JSON.stringify(value)?.slice(0, 30)}`,
            operation.method,
            pathOf(operation),
            JSON.stringify({ [property]: value }),
          );
        }
      }
    }
    console.log(`${sent} hostile requests over ${operations.length} operations`);
    expect(fives).toEqual([]);
    expect(unexplained).toEqual([]);
  }, 300_000);

  it('refuses a lone surrogate, escaped or raw, and its keyed repeat, with a 400', async () => {
    const post = (body: string | Buffer, key?: string) =>
      pool
        .request({
          method: 'POST',
          path: '/platform/v1/workspaces',
          headers: {
            authorization: `Bearer ${server.orgToken}`,
            'content-type': 'application/json',
            ...(key && { 'idempotency-key': key }),
          },
          body,
        })
        .then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as any }));
    for (const body of ['{"name":"\\ud800"}', '{"name":"tail \\udfff"}', '{"\\ud800":1}']) {
      for (const key of [undefined, `surrogate-${body}`, `surrogate-${body}`]) {
        const answer = await post(body, key);
        expect(answer.status, body).toBe(400);
        expect(answer.body.message).toMatch(/lone UTF-16 surrogate/);
      }
    }
    // Bytes that are not UTF-8 (a surrogate encoded as if it were a character).
    const raw = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]);
    const rawAnswer = await post(raw);
    expect(rawAnswer).toMatchObject({
      status: 400,
      body: { message: 'request body is not valid UTF-8' },
    });
    // A pair is a character: kept exactly, and its keyed repeat replays it.
    const pair = await post('{"name":"Books \\ud83d\\udcda"}', 'pair-key');
    expect(pair.status).toBe(201);
    expect(pair.body.workspace.name).toBe('Books \u{1F4DA}');
    const again = await post('{"name":"Books \\ud83d\\udcda"}', 'pair-key');
    expect(again.body.workspace.id).toBe(pair.body.workspace.id);
  });

  it('answers a body over 5 MB with a 413 the client reads, never a broken pipe', async () => {
    for (const size of [6, 6, 6, 40, 40]) {
      // The JSON of {"name": "xxx…"}, made as bytes: JSON.stringify of a 40 MB string took 10 s
      // of collections in a test worker that had run other files before.
      const big = Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.alloc(size * 1024 * 1024, 'x'),
        Buffer.from('"}'),
      ]);
      const response = await fetch(`${server.baseUrl}/platform/v1/workspaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.orgToken}`, 'content-type': 'application/json' },
        body: big,
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as any).message).toBe('request body is larger than 5 MB');
    }
    // Chunked, with no length told in advance: the limit is found mid-body.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const response = await pool.request({
        method: 'POST',
        path: '/platform/v1/workspaces',
        headers: { authorization: `Bearer ${server.orgToken}`, 'content-type': 'application/json' },
        body: Readable.from(
          (function* () {
            yield Buffer.from('{"name":"');
            for (let i = 0; i < 160; i += 1) yield chunk;
            yield Buffer.from('"}');
          })(),
        ),
      });
      expect(response.statusCode).toBe(413);
      expect(((await response.body.json()) as any).message).toBe(
        'request body is larger than 5 MB',
      );
    }
  });

  it('after a 413, reads the rest of the body and serves the next request on that connection', async () => {
    // The server must not close under a client still sending: the kernel would reset the
    // connection, and a client busy writing may meet the reset (EPIPE) before it reads the 413.
    const client = await rawClient(server.baseUrl);
    client.socket.write(chunkedPostHead(server.orgToken) + chunkOf('{"name":"'));
    for (let i = 0; i < 96; i += 1) client.socket.write(chunkOf(X64K));
    const refused = await client.nextResponse();
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).not.toBe('close');
    // Only now does the client finish its body, then asks again on the same connection.
    for (let i = 0; i < 8; i += 1) client.socket.write(chunkOf(X64K));
    client.socket.write(chunkOf('"}') + '0\r\n\r\n');
    client.socket.write(
      `GET /platform/v1/workspaces HTTP/1.1\r\nHost: books\r\nAuthorization: Bearer ${server.orgToken}\r\n\r\n`,
    );
    const next = await client.nextResponse();
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body).data).toBeInstanceOf(Array);
    client.socket.end();
  });

  it('closes the connection of a client that goes on sending 64 MB past its 413', async () => {
    const client = await rawClient(server.baseUrl);
    client.socket.write(chunkedPostHead(server.orgToken) + chunkOf('{"name":"'));
    let written = 0;
    while (!client.closed() && written < 200 * MB) {
      written += X64K.length;
      if (!client.socket.write(chunkOf(X64K))) await client.drainedOrClosed();
    }
    expect(client.closed()).toBe(true);
    expect((await client.nextResponse()).status).toBe(413);
    expect(written).toBeGreaterThan(64 * MB);
    expect(written).toBeLessThan(96 * MB);
  });
});

const MB = 1024 * 1024;
const X64K = 'x'.repeat(64 * 1024);

function chunkedPostHead(token: string): string {
  return (
    'POST /platform/v1/workspaces HTTP/1.1\r\nHost: books\r\n' +
    `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
    'Transfer-Encoding: chunked\r\n\r\n'
  );
}

function chunkOf(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** HTTP/1.1 by hand on one socket: what a client writes and when, to the byte. */
async function rawClient(baseUrl: string) {
  const url = new URL(baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  let failure: Error | undefined;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  socket.on('data', (data: Buffer) => {
    received += data.toString('latin1');
    wake();
  });
  socket.on('drain', wake);
  socket.on('error', (error) => {
    failure = error;
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ready()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return {
    socket,
    closed: () => closed || failure !== undefined,
    drainedOrClosed: () =>
      until(() => closed || failure !== undefined || socket.writableLength === 0),
    async nextResponse(): Promise<RawResponse> {
      let response: RawResponse | undefined;
      await until(() => {
        response = parseResponse(received);
        return response !== undefined || closed || failure !== undefined;
      });
      if (response === undefined) {
        throw failure ?? new Error(`the connection closed after: ${received.slice(0, 200)}`);
      }
      received = received.slice(responseLength(received));
      return response;
    },
  };
}

function responseLength(text: string): number {
  const end = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return end + 4 + Number(length?.[1] ?? 0);
}

/** The first whole response in `text` (with a Content-Length, as every answer here has). */
function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0 || text.length < responseLength(text)) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: Buffer.from(text.slice(end + 4, responseLength(text)), 'latin1').toString('utf8'),
  };
}
