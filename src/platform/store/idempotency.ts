import type { Sql } from './sql.js';

/** A kept answer as it is stored, as `books db check` reads it. */
export interface KeptRecord {
  scope: string;
  key: string;
  state: string;
  status: number | null;
  headers: string | null;
  body: string | Buffer | null;
}

/**
 * Bodies longer than this are kept deflated (shorter ones as text). A bulk create's answer is
 * ~100 kB of repetitive JSON: deflated at level 1 it is 17 times smaller, so a million-line
 * import keeps ~15 MB of replayable answers instead of 250 MB.
 */
const DEFLATE_ABOVE_BYTES = 1024;

/** node:zlib, loaded by the first long body: a command that keeps none does without it. */
const loadZlib = () => process.getBuiltinModule('node:zlib');

export function storedBody(body: string): string | Buffer {
  return body.length > DEFLATE_ABOVE_BYTES ? loadZlib().deflateRawSync(body, { level: 1 }) : body;
}

export function replayedBody(stored: string | Buffer | null): string {
  if (stored === null) return '';
  return typeof stored === 'string' ? stored : loadZlib().inflateRawSync(stored).toString('utf8');
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
 * What claiming a key in a transaction gives: the key to run the request under, or its record
 * (`in_flight`: a row with no answer yet, which only an older `books` left committed).
 */
export type IdempotencyClaim =
  { outcome: 'claimed' } | { outcome: 'in_flight' } | IdempotencyLookup;

/**
 * Idempotency records, scoped by (organization, key): the answer to a keyed write, kept 24 h
 * for its repeats. A request claims its key inside its write's transaction by inserting the
 * key's row, and records its answer there before the commit: a crash leaves both or neither,
 * and no claim outlives its transaction. The row's primary key is what serializes two requests
 * with one key across processes: a second insert waits for the first transaction, then meets
 * its record. Within a process, a set of held keys answers a second request at once (409).
 */
export abstract class IdempotencyStore {
  private readonly held = new Set<string>();

  constructor(protected readonly sql: Sql) {}

  /** Holds a key for a request of this process: its release, or undefined when already held. */
  hold(scope: string, key: string): (() => void) | undefined {
    const name = `${scope} ${key}`;
    if (this.held.has(name)) return undefined;
    this.held.add(name);
    return () => this.held.delete(name);
  }

  /**
   * Claims a key for `request` (call inside its transaction): claimed when the key has no
   * record in its window (an expired one is taken over), else what its record says.
   */
  async claim(
    scope: string,
    key: string,
    request: KeyedRequest,
    nowMs = Date.now(),
  ): Promise<IdempotencyClaim> {
    if (await this.insertClaim(scope, key, request, nowMs)) return { outcome: 'claimed' };
    // The record is there, committed (a claim still running elsewhere was waited for).
    return (await this.find(scope, key, request, nowMs)) ?? { outcome: 'in_flight' };
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

  /** Keeps a claimed key's answer (in the claim's transaction). */
  abstract record(scope: string, key: string, response: StoredResponse): Promise<void>;

  /** Drops records older than the replay window. */
  abstract prune(nowMs?: number): Promise<void>;

  /** Every kept record after `after` in (organization, key) order, `limit` at a time (`books db check`). */
  abstract recordsAfter(
    after: { scope: string; key: string } | undefined,
    limit: number,
  ): Promise<KeptRecord[]>;

  /**
   * Inserts the key's row, or takes over an expired one: true when claimed, false when a
   * record in its window holds the key.
   */
  protected abstract insertClaim(
    scope: string,
    key: string,
    request: KeyedRequest,
    nowMs: number,
  ): Promise<boolean>;

  protected abstract read(scope: string, key: string): Promise<KeyRecordRow | undefined>;
}
