import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
  storedBody,
  type KeyedRequest,
  type KeyRecordRow,
  type StoredResponse,
} from '../idempotency.js';

/**
 * Idempotency records on SQLite: `created_at` in milliseconds; the body as TEXT, or deflated
 * as a BLOB. Rows left `in_flight` by an older `books` (which stored claims) are dropped at
 * start-up: no request of this process can hold them.
 */
export class SqliteIdempotencyStore extends IdempotencyStore {
  async record(
    scope: string,
    key: string,
    request: KeyedRequest,
    response: StoredResponse,
    nowMs = Date.now(),
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO idempotency_keys (organization_id, key, method, path, body_hash, state, status, headers, body, created_at)
       VALUES (?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)
       ON CONFLICT (organization_id, key) DO UPDATE SET method = excluded.method,
         path = excluded.path, body_hash = excluded.body_hash, state = 'done',
         status = excluded.status, headers = excluded.headers, body = excluded.body,
         created_at = excluded.created_at`,
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

  async prune(nowMs = Date.now()): Promise<void> {
    await this.sql.run('DELETE FROM idempotency_keys WHERE created_at <= ?', [
      nowMs - IDEMPOTENCY_WINDOW_MS,
    ]);
  }

  /** Claims an older `books` stored and a crash left behind. */
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
