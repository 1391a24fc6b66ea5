import type { ErrorBody, List } from '../api/index.js';
import { DATABASE_STATE_HEADER } from '../api/protocol.js';
import { ApiError, NetworkError } from './errors.js';
import { monotonicMs } from './pacer.js';
import type { Transport, TransportResponse } from './transport.js';

/** Some items of a list, and how many it has. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** Every page's items in one list, with the list's total. */
export async function collectPages<T>(pages: AsyncIterable<ListPage<T>>): Promise<ListPage<T>> {
  const items: T[] = [];
  let total = 0;
  for await (const page of pages) {
    items.push(...page.items);
    total = page.total;
  }
  return { items, total: Math.max(total, items.length) };
}

/** A line of the audit log: one attempt of one request. */
export interface RequestRecord {
  at: string;
  method: string;
  path: string;
  status: number | null;
  traceId: string | null;
  idempotencyKey: string | null;
  attempt: number;
  durationMs: number;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 8_000 };

export interface ClientOptions {
  transport: Transport;
  token: string;
  retry?: Partial<RetryPolicy>;
  /** Called after every attempt (the CLI appends it to its audit log). */
  onRequest?: (record: RequestRecord) => void;
  /** Waits between retries; injectable so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Holds every attempt to a rate (see RequestPacer); none when absent. */
  pace?: () => Promise<void>;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A key of the caller's (e.g. derived from a file and batch); a fresh one otherwise. */
  idempotencyKey?: string;
  /** The media type asked for (Accept): JSON unless a route answers in another form too. */
  accept?: string;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a failed attempt may be sent again with the same key. */
function retryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}

/**
 * A fresh idempotency key. node:crypto is loaded by the first write: it costs a command that
 * only reads a remote platform about 4 ms of its start.
 */
const newIdempotencyKey = () => process.getBuiltinModule('node:crypto').randomUUID();

/**
 * The thin API layer's core: bearer auth, JSON, an `Idempotency-Key` on every mutating request
 * (the same across its retries), and bounded retries with exponential backoff and full jitter on
 * 429 (honoring `Retry-After`), 5xx and network failures. Errors come out typed.
 */
export class ApiClient {
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: ClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    return (response.body === '' ? undefined : JSON.parse(response.body)) as T;
  }

  /**
   * A GET whose success comes as it arrives (the general ledger of any size): its body's pieces.
   * Failures are read whole and thrown (and retried) as `request`'s are.
   */
  async stream(
    path: string,
    query: RequestOptions['query'] = {},
    accept = 'application/json',
  ): Promise<{ pieces: AsyncIterable<string | Uint8Array>; contentType: string }> {
    const response = await this.send('GET', path, { query, accept }, true);
    const { stream, body } = response;
    return {
      pieces:
        stream ??
        (async function* () {
          yield body;
        })(),
      // What the platform answered in: a platform that knows no other form answers JSON.
      contentType: response.headers['content-type'] ?? 'application/json',
    };
  }

  /**
   * A list page by page, as `limit`/`offset` pagination gives it, up to `max` items: each page's
   * items with the list's total, for a command to write as they come. The next page is asked
   * for as soon as one arrives, so that the platform makes it while the command writes this one.
   */
  async *pages<T>(
    path: string,
    query: RequestOptions['query'] = {},
    max = Number.POSITIVE_INFINITY,
  ): AsyncGenerator<ListPage<T>> {
    const fetchPage = (offset: number) =>
      this.request<List<T>>('GET', path, {
        query: { ...query, limit: Math.min(100, max - offset), offset },
      });
    let offset = 0;
    let pending: Promise<List<T>> | undefined = fetchPage(0);
    while (pending) {
      const page: List<T> = await pending;
      const total = Math.max(page.pagination.total, offset + page.data.length);
      offset += page.data.length;
      const more = page.data.length > 0 && offset < total && offset < max;
      pending = more ? fetchPage(offset) : undefined;
      // A page asked for ahead and not wanted after all (the caller stopped) is not left failing.
      pending?.catch(() => undefined);
      yield { items: page.data, total };
    }
  }

  /** Follows `limit`/`offset` pagination to the end (or `max` items). */
  async listAll<T>(
    path: string,
    query: RequestOptions['query'] = {},
    max = Number.POSITIVE_INFINITY,
  ): Promise<T[]> {
    return (await this.listUpTo<T>(path, query, max)).items;
  }

  /** The first `max` items, and how many there are in all (`total`: what a cut list says). */
  listUpTo<T>(
    path: string,
    query: RequestOptions['query'] = {},
    max = Number.POSITIVE_INFINITY,
  ): Promise<ListPage<T>> {
    return collectPages(this.pages<T>(path, query, max));
  }

  async close(): Promise<void> {
    await this.options.transport.close();
  }

  private async send(
    method: string,
    path: string,
    options: RequestOptions,
    stream = false,
  ): Promise<TransportResponse> {
    const idempotencyKey = MUTATING.has(method)
      ? (options.idempotencyKey ?? newIdempotencyKey())
      : null;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: options.accept ?? 'application/json',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const fullPath = path + queryString(options.query);
    for (let attempt = 1; ; attempt += 1) {
      const started = monotonicMs();
      let response: TransportResponse | undefined;
      let failure: unknown;
      if (this.options.pace) await this.options.pace();
      try {
        response = await this.options.transport.send({
          method,
          path: fullPath,
          headers,
          body,
          ...(stream && { stream }),
        });
      } catch (error) {
        failure = error;
      }
      const traceId = response
        ? (parseError(response)?.traceId ?? response.headers['x-request-id'] ?? null)
        : null;
      this.options.onRequest?.({
        at: new Date().toISOString(),
        method,
        path: fullPath,
        status: response?.status ?? null,
        traceId,
        idempotencyKey,
        attempt,
        durationMs: Math.round(monotonicMs() - started),
      });
      const status = response?.status ?? null;
      if (response && status! < 400) return response;
      const hopeless = response?.headers[DATABASE_STATE_HEADER] === 'damaged';
      if (!retryable(status) || hopeless || attempt >= this.retry.attempts) {
        if (!response) {
          throw new NetworkError(
            `cannot reach the platform: ${(failure as Error)?.message ?? failure}`,
            failure,
          );
        }
        const error = parseError(response);
        throw new ApiError(
          response.status,
          error?.message ?? `HTTP ${response.status}`,
          traceId,
          error?.blockers,
        );
      }
      await this.sleep(this.delay(attempt, response?.headers['retry-after']));
    }
  }

  /** Full-jitter exponential backoff, never shorter than the server's Retry-After. */
  private delay(attempt: number, retryAfter: string | undefined): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    const jittered = Math.round(this.random() * ceiling);
    const seconds = retryAfter === undefined ? NaN : Number(retryAfter);
    return Number.isFinite(seconds) ? Math.max(seconds * 1000, jittered) : jittered;
  }
}

function parseError(response: TransportResponse): ErrorBody | undefined {
  if (response.status < 400 || response.body === '') return undefined;
  try {
    const parsed = JSON.parse(response.body) as Partial<ErrorBody>;
    return typeof parsed.message === 'string' ? (parsed as ErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
