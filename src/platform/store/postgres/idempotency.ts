import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
  storedBody,
  type KeptRecord,
  type KeyedRequest,
  type KeyRecordRow,
  type StoredResponse,
} from '../idempotency.js';

/** Idempotency records on PostgreSQL: `created_at` a timestamptz; long bodies in `bytea`. */
export class PostgresIdempotencyStore extends IdempotencyStore {
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
         status = NULL, headers = NULL, body = NULL, body_deflated = NULL,
         created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= ?
       RETURNING 1 AS claimed`,
      [
        scope,
        key,
        request.method,
        request.path,
        request.bodyHash,
        new Date(nowMs).toISOString(),
        new Date(nowMs - IDEMPOTENCY_WINDOW_MS).toISOString(),
      ],
    );
    return claimed !== undefined;
  }

  async record(scope: string, key: string, response: StoredResponse): Promise<void> {
    const body = storedBody(response.body);
    await this.sql.run(
      `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?,
         body_deflated = ?
       WHERE organization_id = ? AND key = ?`,
      [
        response.status,
        JSON.stringify(response.headers),
        typeof body === 'string' ? body : null,
        typeof body === 'string' ? null : body,
        scope,
        key,
      ],
    );
  }

  async recordsAfter(after: { scope: string; key: string } | undefined, limit: number) {
    const rows = await this.sql.all<
      Omit<KeptRecord, 'body'> & {
        body: string | null;
        body_deflated: Buffer | null;
      }
    >(
      `SELECT organization_id::text AS scope, key, state, status, headers, body, body_deflated
       FROM idempotency_keys
       WHERE (organization_id, key) > (?::uuid, ?) ORDER BY organization_id, key LIMIT ?`,
      [after?.scope ?? '00000000-0000-0000-0000-000000000000', after?.key ?? '', limit],
    );
    return rows.map(({ body_deflated, body, ...rest }) => ({
      ...rest,
      body: body_deflated ?? body,
    }));
  }

  async prune(nowMs = Date.now()): Promise<void> {
    await this.sql.run('DELETE FROM idempotency_keys WHERE created_at <= ?', [
      new Date(nowMs - IDEMPOTENCY_WINDOW_MS).toISOString(),
    ]);
  }

  protected async read(scope: string, key: string): Promise<KeyRecordRow | undefined> {
    const row = await this.sql.get<
      Omit<KeyRecordRow, 'createdAtMs' | 'body'> & {
        body: string | null;
        body_deflated: Buffer | null;
        created_at: string;
      }
    >(
      `SELECT method, path, body_hash, status, headers, body, body_deflated, created_at
       FROM idempotency_keys WHERE organization_id = ? AND key = ? AND state = 'done'`,
      [scope, key],
    );
    if (!row) return undefined;
    const { body_deflated, created_at, body, ...rest } = row;
    return { ...rest, body: body_deflated ?? body, createdAtMs: Date.parse(created_at) };
  }
}
