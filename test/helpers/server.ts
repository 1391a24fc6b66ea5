import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createPlatform, type Platform, type PlatformOptions } from '../../src/platform/index.js';
import type { Store } from '../../src/platform/store/index.js';
import { freshPostgresDatabase, TEST_BACKEND, TEST_POOL_SIZE } from './backend.js';
import { SqliteBackend } from '../../src/platform/store/sqlite/backend.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (with Content-Type: application/json). */
  rawBody?: string;
  /** The bearer token; `null` sends no Authorization header. Default: the org token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestServer {
  baseUrl: string;
  platform: Platform;
  orgToken: string;
  adminToken: string;
  /** Where its books are: a SQLite file, or a PostgreSQL URL when the run is on PostgreSQL. */
  databaseFile: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * A real local platform on a loopback port over a real SQLite file in a temporary directory
 * (or, in a PostgreSQL run, a database of its own), removed on close.
 */
export async function startServer(options: Partial<PlatformOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-test-'));
  const postgres =
    TEST_BACKEND === 'postgres' && options.database === undefined
      ? await freshPostgresDatabase()
      : undefined;
  const databaseFile = postgres?.url ?? path.join(dir, 'platform.sqlite');
  const platform = await createPlatform({
    rateLimitPerSecond: 0,
    ...options,
    database: options.database ?? databaseFile,
    tuning: { ...(TEST_POOL_SIZE && { poolSize: TEST_POOL_SIZE }), ...options.tuning },
  });
  await platform.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = platform.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: TestServer = {
    baseUrl,
    platform,
    orgToken: platform.orgToken,
    adminToken: platform.adminToken,
    databaseFile,
    request: (method, requestPath, requestOptions = {}) =>
      send(baseUrl, platform.orgToken, method, requestPath, requestOptions),
    async close() {
      await platform.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

export async function send<T = any>(
  baseUrl: string,
  defaultToken: string,
  method: string,
  requestPath: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? defaultToken : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${baseUrl}${requestPath}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Creates a workspace (and optionally an entity) for a test. */
export async function createWorkspace(server: TestServer, name = 'Acme Holdings', token?: string) {
  const response = await server.request('POST', '/platform/v1/workspaces', {
    body: { name },
    ...(token && { token }),
  });
  if (response.status !== 201) throw new Error(`workspace create failed: ${response.text}`);
  return response.body.workspace as { id: string; name: string; timezone: string };
}

/** A well-formed id that names nothing: for 404s and for references that must not resolve. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A second organization, to prove that one book of business cannot see another's. */
export async function createOrganization(server: TestServer, name = 'Other Firm') {
  const response = await server.request('POST', '/sandbox/v1/organizations', {
    body: { name },
    token: server.adminToken,
  });
  if (response.status !== 201) throw new Error(`organization create failed: ${response.text}`);
  return response.body as { organization: { id: string }; token: string };
}

/** Asserts the error envelope: `{ message, traceId }` with traceId = X-Request-Id. */
export function errorOf(response: ApiResponse) {
  return {
    status: response.status,
    message: response.body?.message as string,
    traceMatches: response.body?.traceId === response.headers.get('x-request-id'),
  };
}

/** The SQLite connection under a store, for tests of what only SQLite has (pragmas, files). */
export function sqliteOf(store: Store) {
  if (!(store.database instanceof SqliteBackend)) throw new Error('not a SQLite store');
  return store.database.db;
}
