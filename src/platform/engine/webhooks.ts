import { randomBytes } from 'node:crypto';
import type {
  CreateWebhookEndpointBody,
  CreateWebhookEndpointResponse,
  ListQuery,
  WebhookEndpoint,
} from '../../api/index.js';
import { notFound } from '../domain/errors.js';
import {
  activeSecrets,
  checkEndpointUrl,
  checkEventTypes,
  envelopeBody,
  healthAfterAttempt,
  isDelivered,
  nextAttemptAt,
  PREVIOUS_SECRET_GRACE_MS,
  SECRET_BYTES,
  secretFrom,
  signedHeaders,
  subscribes,
} from '../domain/webhooks.js';
import type { Store } from '../store/index.js';
import type { DueDelivery, EndpointRecord } from '../store/webhooks.js';
import { newId } from './ids.js';
import { listOf, pageOf } from './pagination.js';

const present = (endpoint: EndpointRecord): WebhookEndpoint => ({
  id: endpoint.id,
  url: endpoint.url,
  eventTypes: endpoint.eventTypes,
  disabled: endpoint.disabled,
  createdAt: endpoint.createdAt,
});

/**
 * The webhook portal (endpoints, secrets, attempt log, retry, recover) and the durable outbox:
 * `publish` writes a message and one delivery per subscribed endpoint in the caller's
 * transaction; the delivery worker takes due deliveries and reports each attempt here.
 *
 * Decisions where the spec is silent: an endpoint's attempt log lists the most recent first; a
 * manual retry or recover is one attempt now (a failure ends it as failed again), and it enables
 * a disabled endpoint, since the operator says the receiver is back; deleting an endpoint drops
 * its deliveries and log.
 */
export class WebhookService {
  /** Called when a delivery may have become due sooner than the worker planned. */
  onDue: () => void = () => {};

  constructor(
    private readonly store: Store,
    /** Seconds before each attempt: the first counted from the message. */
    private readonly scheduleSeconds: readonly number[],
    private readonly nowMs: () => number = Date.now,
    /** Endpoints may be at private addresses (`books serve --allow-private-webhooks`). */
    readonly allowPrivate = false,
  ) {}

  async createEndpoint(
    organizationId: string,
    body: CreateWebhookEndpointBody,
  ): Promise<CreateWebhookEndpointResponse> {
    const endpoint: EndpointRecord = {
      id: newId(),
      organizationId,
      url: checkEndpointUrl(body.url, this.allowPrivate),
      eventTypes: checkEventTypes(body.eventTypes),
      disabled: false,
      failingSinceMs: null,
      createdAt: new Date(this.nowMs()).toISOString(),
    };
    const secret = secretFrom(randomBytes(SECRET_BYTES));
    await this.store.transaction(() => this.store.webhooks.insertEndpoint(endpoint, secret));
    return { endpoint: present(endpoint), secret };
  }

  async listEndpoints(organizationId: string, query: ListQuery) {
    const page = pageOf(query);
    const result = await this.store.webhooks.listEndpoints(organizationId, page.limit, page.offset);
    return listOf(page, { rows: result.rows.map(present), total: result.total });
  }

  async getEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint> {
    return present(await this.findEndpoint(organizationId, id));
  }

  async deleteEndpoint(organizationId: string, id: string): Promise<void> {
    await this.findEndpoint(organizationId, id);
    await this.store.webhooks.deleteEndpoint(id);
  }

  /** A new current secret; the previous one keeps signing for 24 hours. */
  async rotateSecret(organizationId: string, id: string): Promise<{ secret: string }> {
    await this.findEndpoint(organizationId, id);
    const secret = secretFrom(randomBytes(SECRET_BYTES));
    await this.store.transaction(() =>
      this.store.webhooks.rotateSecret(id, secret, this.nowMs() + PREVIOUS_SECRET_GRACE_MS),
    );
    return { secret };
  }

  async attempts(organizationId: string, id: string, query: ListQuery) {
    await this.findEndpoint(organizationId, id);
    const page = pageOf(query);
    return listOf(page, await this.store.webhooks.attempts(id, page.limit, page.offset));
  }

  /** Sends one message to the endpoint again, now. */
  async retry(organizationId: string, endpointId: string, messageId: string): Promise<void> {
    const endpoint = await this.findEndpoint(organizationId, endpointId);
    await this.store.transaction(async () => {
      if (!(await this.store.webhooks.delivery(messageId, endpointId))) throw notFound('message');
      await this.enable(endpoint);
      await this.resend(endpoint, messageId);
    });
    this.wake();
  }

  /** Sends again every message whose delivery to the endpoint failed at or after `since`. */
  async recover(organizationId: string, endpointId: string, since: string): Promise<number> {
    const endpoint = await this.findEndpoint(organizationId, endpointId);
    const count = await this.store.transaction(async () => {
      await this.enable(endpoint);
      const failed = await this.store.webhooks.failedSince(endpointId, Date.parse(since));
      for (const messageId of failed) await this.resend(endpoint, messageId);
      return failed.length;
    });
    this.wake();
    return count;
  }

  /**
   * Puts an event in the outbox for every enabled endpoint subscribed to it. Runs inside the
   * transaction that made the event happen, so the event is sent if and only if it happened.
   */
  async publish(
    organizationId: string,
    eventType: string,
    payload: object,
    occurredAtMs: number,
  ): Promise<void> {
    const endpointIds = (await this.store.webhooks.enabledEndpoints(organizationId))
      .filter((endpoint) => subscribes(endpoint.eventTypes, eventType))
      .map((endpoint) => endpoint.id);
    await this.store.webhooks.enqueue(
      {
        id: newId(),
        organizationId,
        eventType,
        body: envelopeBody(eventType, occurredAtMs, payload),
        createdAt: new Date(occurredAtMs).toISOString(),
      },
      endpointIds,
      this.nowMs() + (this.scheduleSeconds[0] ?? 0) * 1000,
    );
    // The worker looks once the transaction has committed (a rerun or a rollback leaves it
    // nothing more to find).
    if (endpointIds.length > 0) this.wake();
  }

  /**
   * Deliveries due now, each taken for one attempt and held back until `leaseUntilMs` (past it,
   * an attempt whose process died is made again, by whichever process sees it due): of several
   * processes that see a delivery due, one takes it.
   */
  async takeDue(limit: number, leaseUntilMs: number): Promise<DueDelivery[]> {
    const nowMs = this.nowMs();
    const taken: DueDelivery[] = [];
    for (const delivery of await this.store.webhooks.due(nowMs, limit)) {
      if (
        await this.store.webhooks.claim(
          delivery.messageId,
          delivery.endpointId,
          nowMs,
          leaseUntilMs,
        )
      ) {
        taken.push(delivery);
      }
    }
    return taken;
  }

  nextDueAtMs(): Promise<number | undefined> {
    return this.store.webhooks.nextDueAtMs();
  }

  /** Makes a delivery due again at `atMs` (an attempt abandoned by a stop: at once). */
  async release(delivery: DueDelivery, atMs: number): Promise<void> {
    await this.store.webhooks.setNextAttempt(delivery.messageId, delivery.endpointId, atMs);
  }

  /** The headers of an attempt made now: a fresh timestamp, one signature per active secret. */
  async signAttempt(delivery: DueDelivery): Promise<Record<string, string>> {
    const nowMs = this.nowMs();
    const secrets = activeSecrets(await this.store.webhooks.secrets(delivery.endpointId), nowMs);
    return signedHeaders(delivery.messageId, Math.floor(nowMs / 1000), delivery.body, secrets);
  }

  /**
   * Records an attempt's outcome (`responseStatus` null: no answer in time): success ends the
   * delivery; a failure schedules the next attempt or, after the last, marks it failed. The
   * endpoint's health follows: `410 Gone` or five days of failures disable it.
   */
  async recordAttempt(delivery: DueDelivery, responseStatus: number | null): Promise<void> {
    const nowMs = this.nowMs();
    await this.store.transaction(async () => {
      const current = await this.store.webhooks.delivery(delivery.messageId, delivery.endpointId);
      const endpoint = await this.store.webhooks.endpointById(delivery.endpointId);
      if (!current || !endpoint) return; // the endpoint was deleted meanwhile
      const attempt = current.attempts + 1;
      const delivered = isDelivered(responseStatus);
      await this.store.webhooks.insertAttempt({
        messageId: delivery.messageId,
        endpointId: delivery.endpointId,
        attempt,
        status: delivered ? 'succeeded' : 'failed',
        responseStatus,
        at: new Date(nowMs).toISOString(),
      });
      const next = delivered
        ? null
        : nextAttemptAt(this.scheduleSeconds, current.schedulePosition, nowMs);
      await this.store.webhooks.updateDelivery({
        messageId: delivery.messageId,
        endpointId: delivery.endpointId,
        status: delivered ? 'succeeded' : next === null ? 'failed' : 'pending',
        attempts: attempt,
        schedulePosition: next === null ? current.schedulePosition : current.schedulePosition + 1,
        nextAttemptAtMs: next,
        finishedAtMs: next === null ? nowMs : null,
      });
      const health = healthAfterAttempt(endpoint.failingSinceMs, responseStatus, nowMs);
      await this.store.webhooks.setEndpointHealth(
        endpoint.id,
        endpoint.disabled || health.disable !== null,
        health.failingSinceMs,
      );
      if (health.disable !== null) await this.store.webhooks.failPending(endpoint.id, nowMs);
    });
  }

  /** Tells the worker that a delivery may be due now, once the write that made it is in. */
  private wake(): void {
    this.store.database.afterCommit(() => this.onDue());
  }

  /** One attempt now; when the delivery is waiting for a retry already, that retry comes now. */
  private async resend(endpoint: EndpointRecord, messageId: string): Promise<void> {
    const current = (await this.store.webhooks.delivery(messageId, endpoint.id))!;
    await this.store.webhooks.updateDelivery({
      messageId,
      endpointId: endpoint.id,
      status: 'pending',
      attempts: current.attempts,
      schedulePosition:
        current.status === 'pending'
          ? current.schedulePosition
          : Math.max(this.scheduleSeconds.length - 1, 0),
      nextAttemptAtMs: this.nowMs(),
      finishedAtMs: null,
    });
  }

  /** A manual retry or recover says the receiver is back: a disabled endpoint is enabled. */
  private async enable(endpoint: EndpointRecord): Promise<void> {
    if (!endpoint.disabled) return;
    await this.store.webhooks.setEndpointHealth(endpoint.id, false, null);
    endpoint.disabled = false;
  }

  private async findEndpoint(organizationId: string, id: string): Promise<EndpointRecord> {
    const endpoint = await this.store.webhooks.findEndpoint(organizationId, id);
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }
}
