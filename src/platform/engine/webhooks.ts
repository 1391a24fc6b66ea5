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

  createEndpoint(
    organizationId: string,
    body: CreateWebhookEndpointBody,
  ): CreateWebhookEndpointResponse {
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
    this.store.transaction(() => this.store.webhooks.insertEndpoint(endpoint, secret));
    return { endpoint: present(endpoint), secret };
  }

  listEndpoints(organizationId: string, query: ListQuery) {
    const page = pageOf(query);
    const result = this.store.webhooks.listEndpoints(organizationId, page.limit, page.offset);
    return listOf(page, { rows: result.rows.map(present), total: result.total });
  }

  getEndpoint(organizationId: string, id: string): WebhookEndpoint {
    return present(this.findEndpoint(organizationId, id));
  }

  deleteEndpoint(organizationId: string, id: string): void {
    this.findEndpoint(organizationId, id);
    this.store.webhooks.deleteEndpoint(id);
  }

  /** A new current secret; the previous one keeps signing for 24 hours. */
  rotateSecret(organizationId: string, id: string): { secret: string } {
    this.findEndpoint(organizationId, id);
    const secret = secretFrom(randomBytes(SECRET_BYTES));
    this.store.transaction(() =>
      this.store.webhooks.rotateSecret(id, secret, this.nowMs() + PREVIOUS_SECRET_GRACE_MS),
    );
    return { secret };
  }

  attempts(organizationId: string, id: string, query: ListQuery) {
    this.findEndpoint(organizationId, id);
    const page = pageOf(query);
    return listOf(page, this.store.webhooks.attempts(id, page.limit, page.offset));
  }

  /** Sends one message to the endpoint again, now. */
  retry(organizationId: string, endpointId: string, messageId: string): void {
    const endpoint = this.findEndpoint(organizationId, endpointId);
    this.store.transaction(() => {
      if (!this.store.webhooks.delivery(messageId, endpointId)) throw notFound('message');
      this.enable(endpoint);
      this.resend(endpoint, messageId);
    });
    this.onDue();
  }

  /** Sends again every message whose delivery to the endpoint failed at or after `since`. */
  recover(organizationId: string, endpointId: string, since: string): number {
    const endpoint = this.findEndpoint(organizationId, endpointId);
    const count = this.store.transaction(() => {
      this.enable(endpoint);
      const failed = this.store.webhooks.failedSince(endpointId, Date.parse(since));
      for (const messageId of failed) this.resend(endpoint, messageId);
      return failed.length;
    });
    this.onDue();
    return count;
  }

  /**
   * Puts an event in the outbox for every enabled endpoint subscribed to it. Runs inside the
   * transaction that made the event happen, so the event is sent if and only if it happened.
   */
  publish(organizationId: string, eventType: string, payload: object, occurredAtMs: number): void {
    const endpointIds = this.store.webhooks
      .enabledEndpoints(organizationId)
      .filter((endpoint) => subscribes(endpoint.eventTypes, eventType))
      .map((endpoint) => endpoint.id);
    this.store.webhooks.enqueue(
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
    // The worker looks once the transaction has committed.
    if (endpointIds.length > 0) setImmediate(() => this.onDue());
  }

  /** Deliveries due now, for the worker. */
  due(limit: number): DueDelivery[] {
    return this.store.webhooks.due(this.nowMs(), limit);
  }

  nextDueAtMs(): number | undefined {
    return this.store.webhooks.nextDueAtMs();
  }

  /** Holds a delivery back while its attempt is in flight (a crash frees it after `untilMs`). */
  lease(delivery: DueDelivery, untilMs: number): void {
    this.store.webhooks.setNextAttempt(delivery.messageId, delivery.endpointId, untilMs);
  }

  /** The headers of an attempt made now: a fresh timestamp, one signature per active secret. */
  signAttempt(delivery: DueDelivery): Record<string, string> {
    const nowMs = this.nowMs();
    const secrets = activeSecrets(this.store.webhooks.secrets(delivery.endpointId), nowMs);
    return signedHeaders(delivery.messageId, Math.floor(nowMs / 1000), delivery.body, secrets);
  }

  /**
   * Records an attempt's outcome (`responseStatus` null: no answer in time): success ends the
   * delivery; a failure schedules the next attempt or, after the last, marks it failed. The
   * endpoint's health follows: `410 Gone` or five days of failures disable it.
   */
  recordAttempt(delivery: DueDelivery, responseStatus: number | null): void {
    const nowMs = this.nowMs();
    this.store.transaction(() => {
      const current = this.store.webhooks.delivery(delivery.messageId, delivery.endpointId);
      const endpoint = this.store.webhooks.endpointById(delivery.endpointId);
      if (!current || !endpoint) return; // the endpoint was deleted meanwhile
      const attempt = current.attempts + 1;
      const delivered = isDelivered(responseStatus);
      this.store.webhooks.insertAttempt({
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
      this.store.webhooks.updateDelivery({
        messageId: delivery.messageId,
        endpointId: delivery.endpointId,
        status: delivered ? 'succeeded' : next === null ? 'failed' : 'pending',
        attempts: attempt,
        schedulePosition: next === null ? current.schedulePosition : current.schedulePosition + 1,
        nextAttemptAtMs: next,
        finishedAtMs: next === null ? nowMs : null,
      });
      const health = healthAfterAttempt(endpoint.failingSinceMs, responseStatus, nowMs);
      this.store.webhooks.setEndpointHealth(
        endpoint.id,
        endpoint.disabled || health.disable !== null,
        health.failingSinceMs,
      );
      if (health.disable !== null) this.store.webhooks.failPending(endpoint.id, nowMs);
    });
  }

  /** One attempt now; when the delivery is waiting for a retry already, that retry comes now. */
  private resend(endpoint: EndpointRecord, messageId: string): void {
    const current = this.store.webhooks.delivery(messageId, endpoint.id)!;
    this.store.webhooks.updateDelivery({
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
  private enable(endpoint: EndpointRecord): void {
    if (!endpoint.disabled) return;
    this.store.webhooks.setEndpointHealth(endpoint.id, false, null);
    endpoint.disabled = false;
  }

  private findEndpoint(organizationId: string, id: string): EndpointRecord {
    const endpoint = this.store.webhooks.findEndpoint(organizationId, id);
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }
}
