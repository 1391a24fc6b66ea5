import { Agent, request } from 'undici';

const USER_AGENT = 'books-local-platform (Standard Webhooks)';

/** POSTs webhook attempts over HTTP; loaded only once there is an attempt to make. */
export interface WebhookSender {
  /** The endpoint's status, or throws when it did not answer. */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<number>;
  close(): Promise<void>;
}

export function createWebhookSender(timeoutMs: number): WebhookSender {
  const agent = new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return {
    async post(url, headers, body, signal) {
      const response = await request(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body,
        dispatcher: agent,
        signal,
      });
      await response.body.dump().catch(() => {});
      return response.statusCode;
    },
    close: () => agent.close(),
  };
}
