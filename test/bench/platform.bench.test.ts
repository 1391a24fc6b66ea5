import { it } from 'vitest';
import { startServer } from '../helpers/server.js';

/** Percentile of sorted latencies in ms. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(
  label: string,
  total: number,
  concurrency: number,
  send: (i: number) => Promise<number>,
) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const status = await send(i);
        if (status >= 300) throw new Error(`${label}: status ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(52)} ${String(Math.round(total / seconds)).padStart(6)} req/s   p50 ${percentile(latencies, 50).toFixed(2)} ms   p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
}

it('platform core over HTTP on a file database', async () => {
  const server = await startServer();
  try {
    const headers = {
      authorization: `Bearer ${server.orgToken}`,
      'content-type': 'application/json',
    };
    await measure(
      'POST /workspaces (4 in flight)',
      2000,
      4,
      async (i) =>
        (
          await fetch(`${server.baseUrl}/platform/v1/workspaces`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `W${i}` }),
          })
        ).status,
    );
    await measure(
      'POST /workspaces with Idempotency-Key (4 in flight)',
      2000,
      4,
      async (i) =>
        (
          await fetch(`${server.baseUrl}/platform/v1/workspaces`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': `bench-${i}` },
            body: JSON.stringify({ name: `K${i}` }),
          })
        ).status,
    );
    await measure(
      'GET /workspaces?limit=100 (4 in flight)',
      2000,
      4,
      async () =>
        (await fetch(`${server.baseUrl}/platform/v1/workspaces?limit=100`, { headers })).status,
    );
  } finally {
    await server.close();
  }
});
