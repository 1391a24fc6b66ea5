import { Pool } from 'undici';
import { SERVE_TOKEN } from './cli.js';

/**
 * A load's client of `books serve`: `connections` kept open, each request with the bench token
 * and, for a write, its `Idempotency-Key`; the answer parsed unless `read` is false (a load that
 * counts latencies reads none of them: the client's own work would count in).
 */
export function benchClient(baseUrl: string, connections: number) {
  const pool = new Pool(baseUrl, { connections });
  return {
    async call(method: string, url: string, body?: unknown, key?: string, read = true) {
      const response = await pool.request({
        method: method as 'GET',
        path: url,
        headers: {
          authorization: `Bearer ${SERVE_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(key && { 'idempotency-key': key }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!read && response.statusCode < 400) {
        await response.body.dump();
        return {
          status: response.statusCode,
          headers: response.headers,
          body: undefined as any,
        };
      }
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        body: (text ? JSON.parse(text) : undefined) as any,
      };
    },
    close: () => pool.close(),
  };
}
