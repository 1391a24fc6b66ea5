import type { Bucket, FailureWindow } from '../domain/rateLimit.js';
import type { Sql } from './sql.js';

/**
 * The rate limits' state, shared by every process on the database: each organization's token
 * bucket, and each address's failed authentications this minute. Times are readings of the
 * limits' own clock in milliseconds (tests move it), not instants of the books.
 */
export class RateLimitStore {
  constructor(private readonly sql: Sql) {}

  async bucket(organizationId: string): Promise<Bucket | undefined> {
    const row = await this.sql.get<{ tokens: number; at_ms: number }>(
      'SELECT tokens, at_ms FROM rate_buckets WHERE organization_id = ?',
      [organizationId],
    );
    return row && { tokens: Number(row.tokens), atMs: Number(row.at_ms) };
  }

  async saveBucket(organizationId: string, bucket: Bucket): Promise<void> {
    await this.sql.run(
      `INSERT INTO rate_buckets (organization_id, tokens, at_ms) VALUES (?, ?, ?)
       ON CONFLICT (organization_id) DO UPDATE SET tokens = excluded.tokens, at_ms = excluded.at_ms`,
      [organizationId, bucket.tokens, bucket.atMs],
    );
  }

  async failures(address: string): Promise<FailureWindow | undefined> {
    const row = await this.sql.get<{ start_ms: number; failures: number }>(
      'SELECT start_ms, failures FROM auth_failures WHERE address = ?',
      [address],
    );
    return row && { startMs: Number(row.start_ms), failures: Number(row.failures) };
  }

  async saveFailures(address: string, window: FailureWindow): Promise<void> {
    await this.sql.run(
      `INSERT INTO auth_failures (address, start_ms, failures) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET start_ms = excluded.start_ms, failures = excluded.failures`,
      [address, window.startMs, window.failures],
    );
  }

  /** Forgets the windows that ended before `beforeMs`. */
  async forgetFailuresBefore(beforeMs: number): Promise<void> {
    await this.sql.run('DELETE FROM auth_failures WHERE start_ms < ?', [beforeMs]);
  }
}
