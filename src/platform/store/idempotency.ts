import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqliteDatabase } from './database.js';

/**
 * Bodies longer than this are kept deflated (as a BLOB; shorter ones as TEXT). A bulk create's
 * answer is ~100 kB of repetitive JSON: deflated at level 1 it is 17 times smaller, so a
 * million-line import keeps ~15 MB of replayable answers instead of 250 MB.
 */
const DEFLATE_ABOVE_BYTES = 1024;

function storedBody(body: string): string | Buffer {
  return body.length > DEFLATE_ABOVE_BYTES ? deflateRawSync(body, { level: 1 }) : body;
}

function replayedBody(stored: string | Buffer | null): string {
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

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'mismatch' }
  | { outcome: 'in_flight' };

interface KeyRow {
  method: string;
  path: string;
  body_hash: string;
  state: 'in_flight' | 'done';
  status: number | null;
  headers: string | null;
  body: string | Buffer | null;
  created_at: number;
}

/**
 * Idempotency records, scoped by (organization, key). A request claims its key before it runs;
 * the record then holds the response for 24 h, or is dropped when the response is a 5xx.
 */
export class IdempotencyStore {
  private readonly claimTransaction;
  private readonly completeStatement;
  private readonly releaseStatement;
  private readonly pruneStatement;
  private readonly clearInFlightStatement;

  constructor(db: SqliteDatabase) {
    const select = db.prepare<[string, string], KeyRow>(
      'SELECT method, path, body_hash, state, status, headers, body, created_at FROM idempotency_keys WHERE organization_id = ? AND key = ?',
    );
    const remove = db.prepare('DELETE FROM idempotency_keys WHERE organization_id = ? AND key = ?');
    const insert = db.prepare(
      `INSERT INTO idempotency_keys (organization_id, key, method, path, body_hash, state, created_at)
       VALUES (?, ?, ?, ?, ?, 'in_flight', ?)`,
    );
    this.claimTransaction = db.transaction(
      (
        organizationId: string,
        key: string,
        method: string,
        path: string,
        bodyHash: string,
        nowMs: number,
      ): IdempotencyClaim => {
        const existing = select.get(organizationId, key);
        if (existing && existing.created_at > nowMs - IDEMPOTENCY_WINDOW_MS) {
          if (
            existing.method !== method ||
            existing.path !== path ||
            existing.body_hash !== bodyHash
          ) {
            return { outcome: 'mismatch' };
          }
          if (existing.state === 'in_flight') return { outcome: 'in_flight' };
          return {
            outcome: 'replay',
            response: {
              status: existing.status ?? 200,
              headers: JSON.parse(existing.headers ?? '{}') as Record<string, string>,
              body: replayedBody(existing.body),
            },
          };
        }
        if (existing) remove.run(organizationId, key);
        insert.run(organizationId, key, method, path, bodyHash, nowMs);
        return { outcome: 'claimed' };
      },
    );
    this.completeStatement = db.prepare(
      `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?
       WHERE organization_id = ? AND key = ?`,
    );
    this.releaseStatement = remove;
    this.pruneStatement = db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?');
    this.clearInFlightStatement = db.prepare(
      "DELETE FROM idempotency_keys WHERE state = 'in_flight'",
    );
  }

  claim(
    organizationId: string,
    key: string,
    request: { method: string; path: string; bodyHash: string },
    nowMs = Date.now(),
  ): IdempotencyClaim {
    return this.claimTransaction(
      organizationId,
      key,
      request.method,
      request.path,
      request.bodyHash,
      nowMs,
    );
  }

  complete(organizationId: string, key: string, response: StoredResponse): void {
    this.completeStatement.run(
      response.status,
      JSON.stringify(response.headers),
      storedBody(response.body),
      organizationId,
      key,
    );
  }

  /** Forgets a claim: the request failed with a 5xx, so a retry must run it again. */
  release(organizationId: string, key: string): void {
    this.releaseStatement.run(organizationId, key);
  }

  /** Drops records older than the replay window. */
  prune(nowMs = Date.now()): void {
    this.pruneStatement.run(nowMs - IDEMPOTENCY_WINDOW_MS);
  }

  /**
   * At start-up no request is running: claims left in flight belong to a process that died
   * before answering, so their requests may be retried.
   */
  clearInFlight(): void {
    this.clearInFlightStatement.run();
  }
}
