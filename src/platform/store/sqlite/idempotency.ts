import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
  storedBody,
  type KeptRecord,
  type KeyedRequest,
  type KeyRecordRow,
  type StoredResponse,
} from '../idempotency.js';

/**
 * Idempotency records on SQLite: `created_at` in milliseconds; the body as TEXT, or deflated as a
 * BLOB. A write transaction here holds the whole database (BEGIN IMMEDIATE, every process), so a
 * key is claimed by looking: no other transaction can claim it meanwhile. Its row is written once,
 * whole, with the answer, instead of inserted and then updated.
 */
export class SqliteIdempotencyStore extends IdempotencyStore {
  /** Keys claimed by this process's open transactions: what their record will say. */
  private readonly claims = new Map<string, { request: KeyedRequest; nowMs: number }>();

  override hold(scope: string, key: string): (() => void) | undefined {
    const release = super.hold(scope, key);
    return (
      release &&
      (() => {
        // A claim whose transaction rolled back is forgotten with the key.
        this.claims.delete(`${scope} ${key}`);
        release();
      })
    );
  }

  protected async insertClaim(
    scope: string,
    key: string,
    request: KeyedRequest,
    nowMs: number,
  ): Promise<boolean> {
    const kept = await this.sql.get(
      `SELECT 1 AS kept FROM idempotency_keys
       WHERE organization_id = ? AND key = ? AND created_at > ?`,
      [scope, key, nowMs - IDEMPOTENCY_WINDOW_MS],
    );
    if (kept !== undefined) return false;
    this.claims.set(`${scope} ${key}`, { request, nowMs });
    return true;
  }

  async record(scope: string, key: string, response: StoredResponse): Promise<void> {
    const name = `${scope} ${key}`;
    const claim = this.claims.get(name);
    if (claim === undefined) throw new Error(`record of an unclaimed key: ${name}`);
    this.claims.delete(name);
    const { request, nowMs } = claim;
    await this.sql.run(
      `INSERT OR REPLACE INTO idempotency_keys
         (organization_id, key, method, path, body_hash, state, status, headers, body, created_at)
       VALUES (?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)`,
      [
        scope,
        key,
        request.method,
        request.path,
        request.bodyHash,
        response.status,
        JSON.stringify(response.headers),
        storedBody(response.body),
        nowMs,
      ],
    );
  }

  async recordsAfter(after: { scope: string; key: string } | undefined, limit: number) {
    const rows = await this.sql.all<KeptRecord & { scope: string }>(
      `SELECT organization_id AS scope, key, state, status, headers, body FROM idempotency_keys
       WHERE (organization_id, key) > (?, ?) ORDER BY organization_id, key LIMIT ?`,
      [after?.scope ?? '', after?.key ?? '', limit],
    );
    return rows;
  }

  async prune(nowMs = Date.now()): Promise<void> {
    await this.sql.run('DELETE FROM idempotency_keys WHERE created_at <= ?', [
      nowMs - IDEMPOTENCY_WINDOW_MS,
    ]);
  }

  /**
   * Claims an older `books` stored as rows of their own, left `in_flight` by a crash: claims
   * are now rows of their transaction only, so none of these can belong to a running request.
   */
  async clearInFlight(): Promise<void> {
    await this.sql.run("DELETE FROM idempotency_keys WHERE state = 'in_flight'");
  }

  protected async read(scope: string, key: string): Promise<KeyRecordRow | undefined> {
    const row = await this.sql.get<Omit<KeyRecordRow, 'createdAtMs'> & { created_at: number }>(
      `SELECT method, path, body_hash, status, headers, body, created_at FROM idempotency_keys
       WHERE organization_id = ? AND key = ? AND state = 'done'`,
      [scope, key],
    );
    return row && { ...row, createdAtMs: row.created_at };
  }
}
