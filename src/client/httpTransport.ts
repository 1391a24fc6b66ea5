import Pool from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** A transport over HTTP(S) with kept-alive connections to one base URL. */
export function httpTransport(
  baseUrl: string,
  options: { connections?: number; timeoutMs?: number } = {},
): Transport {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = new Pool(url.origin, {
    // HTTP/1.1 only: the bundle leaves undici's HTTP/2 client out (esbuild.config.mjs).
    allowH2: false,
    // Node's default (16 KiB), given: else undici loads node:http to read it, about 3 ms of
    // every command. (NODE_OPTIONS' --max-http-header-size does not change it here.)
    maxHeaderSize: 16 * 1024,
    connections: options.connections ?? 8,
    headersTimeout: options.timeoutMs ?? 60_000,
    bodyTimeout: options.timeoutMs ?? 60_000,
  });
  return {
    async send(asked: TransportRequest): Promise<TransportResponse> {
      const response = await request.call(pool, {
        method: asked.method as 'GET',
        path: `${prefix}${asked.path}`,
        headers: asked.headers,
        body: asked.body,
      });
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (asked.stream && response.statusCode < 300) {
        return { status: response.statusCode, headers, body: '', stream: response.body };
      }
      return { status: response.statusCode, headers, body: await response.body.text() };
    },
    close: () => pool.close(),
  };
}
