import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
  storedBody,
  type KeyedRequest,
  type KeyRecordRow,
  type StoredResponse,
} from '../idempotency.js';

/** Idempotency records on SQLite: `created_at` in milliseconds; the body as TEXT, or deflated as a BLOB. */
export class SqliteIdempotencyStore extends IdempotencyStore {
  protected async insertClaim(
    scope: string,
    key: string,
    request: KeyedRequest,
    nowMs: number,
  ): Promise<boolean> {
    const claimed = await this.sql.get(
      `INSERT INTO idempotency_keys (organization_id, key, method, path, body_hash, state, created_at)
       VALUES (?, ?, ?, ?, ?, 'in_flight', ?)
       ON CONFLICT (organization_id, key) DO UPDATE SET method = excluded.method,
         path = excluded.path, body_hash = excluded.body_hash, state = 'in_flight',
         status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= ?
       RETURNING 1 AS claimed`,
      [
        scope,
        key,
        request.method,
        request.path,
        request.bodyHash,
        nowMs,
        nowMs - IDEMPOTENCY_WINDOW_MS,
      ],
    );
    return claimed !== undefined;
  }

  async record(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.sql.run(
      `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?
       WHERE organization_id = ? AND key = ?`,
      [response.status, JSON.stringify(response.headers), storedBody(response.body), scope, key],
    );
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
