import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { webhookTargetProblem } from '../domain/webhooks.js';

const USER_AGENT = 'books-local-platform (Standard Webhooks)';

/** POSTs webhook attempts over HTTP; loaded only once there is an attempt to make. */
export interface WebhookSender {
  /** The endpoint's status, or throws when it did not answer (or may not be sent to). */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<number>;
  close(): Promise<void>;
}

/**
 * Resolves a host as the system does, then refuses it if any address it resolved to is one
 * webhooks may not go to: checked on every connection, so a name that pointed at a public
 * address when registered and at 169.254.169.254 now (DNS rebinding) is not followed there.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, resolved) => {
      if (error) return callback(error, '', 0);
      const addresses = resolved as LookupAddress[];
      for (const { address } of addresses) {
        const problem = webhookTargetProblem(address, allowPrivate);
        if (problem) {
          const refused = Object.assign(new Error(`${hostname} resolves to ${problem}`), {
            code: 'EWEBHOOKTARGET',
          });
          return callback(refused, '', 0);
        }
      }
      if (options.all)
        return (callback as never as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}

export function createWebhookSender(timeoutMs: number, allowPrivate = false): WebhookSender {
  const agent = new Agent({
    // HTTP/1.1 only: the bundle leaves undici's HTTP/2 client out (esbuild.config.mjs).
    allowH2: false,
    connect: { timeout: timeoutMs, lookup: guardedLookup(allowPrivate) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return {
    async post(url, headers, body, signal) {
      // An address written in the URL is connected to without a lookup: judged here.
      const problem = webhookTargetProblem(new URL(url).hostname, allowPrivate);
      if (problem) throw new Error(`webhooks are not sent there: ${problem}`);
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
