import { DELIVERY_TIMEOUT_MS } from '../domain/webhooks.js';
import type { DueDelivery } from '../store/webhooks.js';
import type { WebhookSender } from './webhookSender.js';
import type { WebhookService } from './webhooks.js';

/** Attempts in flight at once. */
const CONCURRENCY = 8;
/**
 * How often the worker looks for due deliveries it was not told of: published by another
 * process on the same database, or left by a process that died while its attempt was leased.
 */
const POLL_MS = 1_000;

/**
 * Sends due deliveries over HTTP: POST of the stored body with fresh signature headers; the
 * answer's status within 15 seconds decides (redirects are not followed: a 3xx is a failure).
 * It sleeps until the earliest due delivery (at most a second), and is woken when one is
 * published here. The outbox is in the database, so what is pending at a stop or a crash is sent
 * after the next start, or by another process serving the same database. Each attempt takes its
 * delivery first (a lease): of several processes, one makes it.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  /** A look for due deliveries is under way; another is wanted once it ends. */
  private looking: Promise<void> | undefined;
  private lookAgain = false;
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
    this.leaseMs = timeoutMs + Math.min(5_000, timeoutMs);
  }

  start(): void {
    this.webhooks.onDue = () => this.look();
    this.look();
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
    await this.looking;
    if (options.drain) {
      await Promise.all(this.inFlight.values());
      // Each attempt moves its delivery along a finite schedule, so this ends.
      try {
        for (let due = await this.take(CONCURRENCY); due.length > 0;) {
          await Promise.all(due.map((delivery) => this.attempt(delivery)));
          due = await this.take(CONCURRENCY);
        }
      } catch {
        // The database is gone: what is left is sent after the next start.
      }
    } else {
      this.stopping.abort();
      await Promise.all(this.inFlight.values());
    }
    if (this.sender) await (await this.sender).close();
  }

  /** Looks for due deliveries now (one look at a time; a call meanwhile asks for another). */
  private look(): void {
    if (this.stopped) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = this.sendDueAndPlan()
      .catch(() => this.sleep(POLL_MS)) // the database is away: look again later
      .finally(() => {
        this.looking = undefined;
        if (this.lookAgain) {
          this.lookAgain = false;
          this.look();
        }
      });
  }

  private async sendDueAndPlan(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const free = CONCURRENCY - this.inFlight.size;
    for (const delivery of free > 0 ? await this.take(free) : []) {
      if (this.stopped) {
        await this.webhooks.release(delivery, Date.now());
        continue;
      }
      const key = `${delivery.messageId} ${delivery.endpointId}`;
      const attempt = this.attempt(delivery)
        .catch(() => {
          // Its outcome could not be recorded: the lease runs out and it is made again.
        })
        .finally(() => {
          this.inFlight.delete(key);
          this.look();
        });
      this.inFlight.set(key, attempt);
    }
    // At capacity, the next attempt to finish looks again.
    if (this.inFlight.size >= CONCURRENCY) return;
    const nextMs = await this.webhooks.nextDueAtMs();
    this.sleep(nextMs === undefined ? POLL_MS : Math.min(POLL_MS, nextMs - Date.now()));
  }

  private sleep(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.look(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private take(limit: number): Promise<DueDelivery[]> {
    return this.webhooks.takeDue(limit, Date.now() + this.leaseMs);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const headers = await this.webhooks.signAttempt(delivery);
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
        // Abandoned by a stop: due again at once, here after the next start or elsewhere now.
        await this.webhooks.release(delivery, Date.now());
        return;
      }
      responseStatus = null;
    }
    await this.webhooks.recordAttempt(delivery, responseStatus);
  }
}
