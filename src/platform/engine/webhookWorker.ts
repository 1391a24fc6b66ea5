import { DELIVERY_TIMEOUT_MS } from '../domain/webhooks.js';
import type { DueDelivery } from '../store/webhooks.js';
import type { WebhookSender } from './webhookSender.js';
import type { WebhookService } from './webhooks.js';

/** Attempts in flight at once. */
const CONCURRENCY = 8;

/**
 * Sends due deliveries over HTTP: POST of the stored body with fresh signature headers; the
 * answer's status within 15 seconds decides (redirects are not followed: a 3xx is a failure).
 * It sleeps until the earliest due delivery and is woken when a new one is published. The
 * outbox is in SQLite, so what is pending at a stop or a crash is sent after the next start.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  /**
   * The HTTP client, loaded at the first attempt: most embedded commands publish nothing, and
   * loading undici took a tenth of their start.
   */
  private sender: Promise<WebhookSender> | undefined;
  /** How long an attempt in flight holds its delivery back: past it, a crash's attempt is redone. */
  private readonly leaseMs: number;

  /**
   * `timeoutMs`: how long an endpoint has to answer; 15 seconds (the spec's), shorter only in
   * tests, which should not wait for it.
   */
  constructor(
    private readonly webhooks: WebhookService,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    this.leaseMs = timeoutMs + 5_000;
  }

  start(): void {
    this.webhooks.onDue = () => this.plan();
    this.plan();
  }

  /**
   * Stops sending. With `drain`, attempts in flight finish and those due now are made first (a
   * short-lived process, the embedded CLI, sends what it published before it exits); without,
   * attempts in flight are abandoned unrecorded and are made again after the next start.
   */
  async stop(options: { drain?: boolean } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.webhooks.onDue = () => {};
    if (this.timer) clearTimeout(this.timer);
    if (options.drain) {
      await Promise.all(this.inFlight.values());
      // Each attempt moves its delivery along a finite schedule, so this ends.
      for (let due = this.webhooks.due(CONCURRENCY); due.length > 0;) {
        await Promise.all(due.map((delivery) => this.attempt(delivery)));
        due = this.webhooks.due(CONCURRENCY);
      }
    } else {
      this.stopping.abort();
      await Promise.all(this.inFlight.values());
    }
    if (this.sender) await (await this.sender).close();
  }

  /** Sleeps until the earliest due delivery (at once when one is due). */
  private plan(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // At capacity, the next attempt to finish plans again.
    if (this.inFlight.size >= CONCURRENCY) return;
    const nextMs = this.webhooks.nextDueAtMs();
    if (nextMs === undefined) return;
    const delayMs = Math.min(Math.max(0, nextMs - Date.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => this.sendDue(), delayMs);
    this.timer.unref();
  }

  private sendDue(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const free = CONCURRENCY - this.inFlight.size;
    for (const delivery of free > 0 ? this.webhooks.due(free) : []) {
      const key = `${delivery.messageId} ${delivery.endpointId}`;
      if (this.inFlight.has(key)) continue;
      this.webhooks.lease(delivery, Date.now() + this.leaseMs);
      const attempt = this.attempt(delivery).finally(() => {
        this.inFlight.delete(key);
        this.plan();
      });
      this.inFlight.set(key, attempt);
    }
    this.plan();
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const headers = this.webhooks.signAttempt(delivery);
    let responseStatus: number | null;
    try {
      this.sender ??= import('./webhookSender.js').then(({ createWebhookSender }) =>
        createWebhookSender(this.timeoutMs, this.webhooks.allowPrivate),
      );
      responseStatus = await (
        await this.sender
      ).post(
        delivery.url,
        headers,
        delivery.body,
        AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.timeoutMs)]),
      );
    } catch {
      if (this.stopping.signal.aborted) {
        // Abandoned by a stop: due again at once after the next start.
        this.webhooks.lease(delivery, Date.now());
        return;
      }
      responseStatus = null;
    }
    this.webhooks.recordAttempt(delivery, responseStatus);
  }
}
