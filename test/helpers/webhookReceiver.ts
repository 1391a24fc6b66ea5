import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The raw body, as bytes arrived. */
  body: Buffer;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  /** Statuses to answer with, in turn (0: never answer); then `fallbackStatus` (default 200). */
  answers: number[];
  fallbackStatus: number;
  /** How long each answer waits (default 0). */
  delayMs: number;
  /** Resolves when `count` deliveries have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on a loopback port that records every delivery byte for byte. */
export async function startReceiver(port = 0): Promise<WebhookReceiver> {
  const waiters: Array<() => void> = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    deliveries: [],
    answers: [],
    fallbackStatus: 200,
    delayMs: 0,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (receiver.deliveries.length < count) return false;
          clearTimeout(timer);
          resolve(receiver.deliveries.slice(0, count));
          return true;
        };
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `expected ${count} deliveries within ${timeoutMs} ms, got ${receiver.deliveries.length}`,
              ),
            ),
          timeoutMs,
        );
        const waiter = () => {
          if (!check()) waiters.push(waiter);
        };
        waiter();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.deliveries.push({
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      const status = receiver.answers.shift() ?? receiver.fallbackStatus;
      for (const waiter of waiters.splice(0)) waiter();
      if (status === 0) return;
      setTimeout(() => {
        response.writeHead(status, status >= 300 && status < 400 ? { location: '/elsewhere' } : {});
        response.end();
      }, receiver.delayMs);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}
