import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Sql, SqlDatabase } from './sql.js';

/**
 * Bodies longer than this are kept deflated (shorter ones as text). A bulk create's answer is
 * ~100 kB of repetitive JSON: deflated at level 1 it is 17 times smaller, so a million-line
 * import keeps ~15 MB of replayable answers instead of 250 MB.
 */
const DEFLATE_ABOVE_BYTES = 1024;

export function storedBody(body: string): string | Buffer {
  return body.length > DEFLATE_ABOVE_BYTES ? deflateRawSync(body, { level: 1 }) : body;
}

export function replayedBody(stored: string | Buffer | null): string {
  if (stored === null) return '';
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}

/** How long a key's response is kept for replay. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a keyed request is compared by: a repeat must match all three. */
export interface KeyedRequest {
  method: string;
  path: string;
  bodyHash: string;
}

/** What a key's record says of a request that brings it again. */
export type IdempotencyLookup =
  { outcome: 'replay'; response: StoredResponse } | { outcome: 'mismatch' };

/** A record as a backend reads it. */
export interface KeyRecordRow {
  method: string;
  path: string;
  body_hash: string;
  status: number | null;
  headers: string | null;
  body: string | Buffer | null;
  createdAtMs: number;
}

/**
 * Idempotency records, scoped by (organization, key): the answer to a keyed write, kept 24 h
 * for its repeats, written in the write's own transaction (so a crash leaves both or neither).
 * A key is "in flight" while a request holds it: within a process, a set of held keys; across
 * processes, a lock the request's transaction takes (PostgreSQL's advisory locks; SQLite
 * writers queue anyway). No claim is ever stored, so nothing is left in flight by a crash.
 */
export abstract class IdempotencyStore {
  private readonly held = new Set<string>();

  constructor(
    protected readonly sql: Sql,
    private readonly database: SqlDatabase,
  ) {}

  /** Holds a key for a request of this process: its release, or undefined when already held. */
  hold(scope: string, key: string): (() => void) | undefined {
    const name = `${scope} ${key}`;
    if (this.held.has(name)) return undefined;
    this.held.add(name);
    return () => this.held.delete(name);
  }

  /**
   * Holds the key across processes until the caller's transaction ends (call inside it): false
   * when another process's request holds it.
   */
  lockAcrossProcesses(scope: string, key: string): Promise<boolean> {
    return this.database.tryLock(`idempotency ${scope} ${key}`);
  }

  /** The record of a key within its window, as the repeat `request` meets it. */
  async find(
    scope: string,
    key: string,
    request: KeyedRequest,
    nowMs = Date.now(),
  ): Promise<IdempotencyLookup | undefined> {
    const existing = await this.read(scope, key);
    if (!existing || existing.createdAtMs <= nowMs - IDEMPOTENCY_WINDOW_MS) return undefined;
    if (
      existing.method !== request.method ||
      existing.path !== request.path ||
      existing.body_hash !== request.bodyHash
    ) {
      return { outcome: 'mismatch' };
    }
    return {
      outcome: 'replay',
      response: {
        status: existing.status ?? 200,
        headers: JSON.parse(existing.headers ?? '{}') as Record<string, string>,
        body: replayedBody(existing.body),
      },
    };
  }

  /** Keeps a key's answer (replacing an expired record of the key). */
  abstract record(
    scope: string,
    key: string,
    request: KeyedRequest,
    response: StoredResponse,
    nowMs?: number,
  ): Promise<void>;

  /** Drops records older than the replay window. */
  abstract prune(nowMs?: number): Promise<void>;

  protected abstract read(scope: string, key: string): Promise<KeyRecordRow | undefined>;
}
