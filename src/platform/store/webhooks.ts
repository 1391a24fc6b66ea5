import type { WebhookAttempt, WebhookAttemptStatus } from '../../api/index.js';
import type { StoredSecret } from '../domain/webhooks.js';
import type { SqliteDatabase } from './database.js';

export interface EndpointRecord {
  id: string;
  organizationId: string;
  url: string;
  eventTypes: string[];
  disabled: boolean;
  failingSinceMs: number | null;
  createdAt: string;
}

interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  event_types: string;
  disabled: number;
  failing_since_ms: number | null;
  created_at: string;
}

const toEndpoint = (row: EndpointRow): EndpointRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  url: row.url,
  eventTypes: JSON.parse(row.event_types) as string[],
  disabled: row.disabled === 1,
  failingSinceMs: row.failing_since_ms,
  createdAt: row.created_at,
});

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One message on its way to one endpoint. */
export interface DueDelivery {
  messageId: string;
  endpointId: string;
  attempts: number;
  schedulePosition: number;
  body: string;
  url: string;
}

export interface AttemptRecord {
  messageId: string;
  endpointId: string;
  attempt: number;
  status: WebhookAttemptStatus;
  responseStatus: number | null;
  at: string;
}

const ENDPOINT_COLUMNS =
  'id, organization_id, url, event_types, disabled, failing_since_ms, created_at';

/** Webhook endpoints and their secrets, the message outbox, deliveries and the attempt log. */
export class WebhookStore {
  private readonly insertEndpointStatement;
  private readonly findEndpointStatement;
  private readonly endpointByIdStatement;
  private readonly leaseStatement;
  private readonly listEndpointsStatement;
  private readonly countEndpointsStatement;
  private readonly deleteEndpointStatement;
  private readonly setEndpointHealthStatement;
  private readonly insertSecretStatement;
  private readonly expireSecretsStatement;
  private readonly secretsStatement;
  private readonly insertMessageStatement;
  private readonly insertDeliveryStatement;
  private readonly dueStatement;
  private readonly nextDueStatement;
  private readonly deliveryStatement;
  private readonly updateDeliveryStatement;
  private readonly failPendingOfEndpointStatement;
  private readonly insertAttemptStatement;
  private readonly attemptsStatement;
  private readonly countAttemptsStatement;
  private readonly failedSinceStatement;
  private readonly subscribersStatement;

  constructor(db: SqliteDatabase) {
    this.insertEndpointStatement = db.prepare(
      `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, disabled, failing_since_ms, created_at)
       VALUES (@id, @organizationId, @url, @eventTypes, @disabled, @failingSinceMs, @createdAt)`,
    );
    this.findEndpointStatement = db.prepare<[string, string], EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND organization_id = ?`,
    );
    this.endpointByIdStatement = db.prepare<[string], EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
    );
    this.leaseStatement = db.prepare(
      `UPDATE webhook_deliveries SET next_attempt_at_ms = ?
       WHERE message_id = ? AND endpoint_id = ? AND status = 'pending'`,
    );
    this.listEndpointsStatement = db.prepare<[string, number, number], EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = ?
       ORDER BY seq LIMIT ? OFFSET ?`,
    );
    this.countEndpointsStatement = db
      .prepare('SELECT COUNT(*) FROM webhook_endpoints WHERE organization_id = ?')
      .pluck();
    this.deleteEndpointStatement = db.prepare('DELETE FROM webhook_endpoints WHERE id = ?');
    this.setEndpointHealthStatement = db.prepare(
      'UPDATE webhook_endpoints SET disabled = ?, failing_since_ms = ? WHERE id = ?',
    );
    this.insertSecretStatement = db.prepare(
      'INSERT INTO webhook_secrets (endpoint_id, secret, expires_at_ms) VALUES (?, ?, NULL)',
    );
    this.expireSecretsStatement = db.prepare(
      'UPDATE webhook_secrets SET expires_at_ms = ? WHERE endpoint_id = ? AND expires_at_ms IS NULL',
    );
    this.secretsStatement = db.prepare<[string], { secret: string; expires_at_ms: number | null }>(
      'SELECT secret, expires_at_ms FROM webhook_secrets WHERE endpoint_id = ? ORDER BY seq',
    );
    this.insertMessageStatement = db.prepare(
      `INSERT INTO webhook_messages (id, organization_id, event_type, body, created_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.insertDeliveryStatement = db.prepare(
      `INSERT INTO webhook_deliveries (message_id, endpoint_id, status, next_attempt_at_ms)
       VALUES (?, ?, 'pending', ?)`,
    );
    this.dueStatement = db.prepare<
      [number, number],
      {
        message_id: string;
        endpoint_id: string;
        attempts: number;
        schedule_position: number;
        body: string;
        url: string;
      }
    >(
      `SELECT d.message_id, d.endpoint_id, d.attempts, d.schedule_position, m.body, e.url
       FROM webhook_deliveries d
       JOIN webhook_messages m ON m.id = d.message_id
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.next_attempt_at_ms <= ? AND e.disabled = 0
       ORDER BY d.next_attempt_at_ms, m.seq LIMIT ?`,
    );
    this.nextDueStatement = db
      .prepare(
        `SELECT MIN(d.next_attempt_at_ms) FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND e.disabled = 0`,
      )
      .pluck();
    this.deliveryStatement = db.prepare<
      [string, string],
      { status: string; attempts: number; schedule_position: number }
    >(
      'SELECT status, attempts, schedule_position FROM webhook_deliveries WHERE message_id = ? AND endpoint_id = ?',
    );
    this.updateDeliveryStatement = db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = @attempts,
         schedule_position = @schedulePosition, next_attempt_at_ms = @nextAttemptAtMs,
         finished_at_ms = @finishedAtMs
       WHERE message_id = @messageId AND endpoint_id = @endpointId`,
    );
    this.failPendingOfEndpointStatement = db.prepare(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at_ms = NULL, finished_at_ms = ?
       WHERE endpoint_id = ? AND status = 'pending'`,
    );
    this.insertAttemptStatement = db.prepare(
      `INSERT INTO webhook_attempts (message_id, endpoint_id, attempt, status, response_status, at)
       VALUES (@messageId, @endpointId, @attempt, @status, @responseStatus, @at)`,
    );
    this.attemptsStatement = db.prepare<
      [string, number, number],
      {
        message_id: string;
        event_type: string;
        attempt: number;
        status: string;
        response_status: number | null;
        at: string;
      }
    >(
      `SELECT a.message_id, m.event_type, a.attempt, a.status, a.response_status, a.at
       FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
       WHERE a.endpoint_id = ? ORDER BY a.seq DESC LIMIT ? OFFSET ?`,
    );
    this.countAttemptsStatement = db
      .prepare('SELECT COUNT(*) FROM webhook_attempts WHERE endpoint_id = ?')
      .pluck();
    this.failedSinceStatement = db
      .prepare(
        `SELECT message_id FROM webhook_deliveries
         WHERE endpoint_id = ? AND status = 'failed' AND finished_at_ms >= ?`,
      )
      .pluck();
    this.subscribersStatement = db.prepare<[string], EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
       WHERE organization_id = ? AND disabled = 0 ORDER BY seq`,
    );
  }

  insertEndpoint(endpoint: EndpointRecord, secret: string): void {
    this.insertEndpointStatement.run({
      ...endpoint,
      eventTypes: JSON.stringify(endpoint.eventTypes),
      disabled: endpoint.disabled ? 1 : 0,
    });
    this.insertSecretStatement.run(endpoint.id, secret);
  }

  findEndpoint(organizationId: string, id: string): EndpointRecord | undefined {
    const row = this.findEndpointStatement.get(id, organizationId);
    return row && toEndpoint(row);
  }

  endpointById(id: string): EndpointRecord | undefined {
    const row = this.endpointByIdStatement.get(id);
    return row && toEndpoint(row);
  }

  listEndpoints(organizationId: string, limit: number, offset: number) {
    return {
      rows: this.listEndpointsStatement.all(organizationId, limit, offset).map(toEndpoint),
      total: Number(this.countEndpointsStatement.get(organizationId)),
    };
  }

  /** The enabled endpoints of an organization (the caller filters by event type). */
  enabledEndpoints(organizationId: string): EndpointRecord[] {
    return this.subscribersStatement.all(organizationId).map(toEndpoint);
  }

  deleteEndpoint(id: string): void {
    this.deleteEndpointStatement.run(id);
  }

  setEndpointHealth(id: string, disabled: boolean, failingSinceMs: number | null): void {
    this.setEndpointHealthStatement.run(disabled ? 1 : 0, failingSinceMs, id);
  }

  /** The current secret starts to expire; the new one becomes current. */
  rotateSecret(endpointId: string, secret: string, previousExpiresAtMs: number): void {
    this.expireSecretsStatement.run(previousExpiresAtMs, endpointId);
    this.insertSecretStatement.run(endpointId, secret);
  }

  secrets(endpointId: string): StoredSecret[] {
    return this.secretsStatement
      .all(endpointId)
      .map((row) => ({ secret: row.secret, expiresAtMs: row.expires_at_ms }));
  }

  /** A message and, for each endpoint given, a delivery whose first attempt is due then. */
  enqueue(
    message: {
      id: string;
      organizationId: string;
      eventType: string;
      body: string;
      createdAt: string;
    },
    endpointIds: readonly string[],
    firstAttemptAtMs: number,
  ): void {
    this.insertMessageStatement.run(
      message.id,
      message.organizationId,
      message.eventType,
      message.body,
      message.createdAt,
    );
    for (const endpointId of endpointIds) {
      this.insertDeliveryStatement.run(message.id, endpointId, firstAttemptAtMs);
    }
  }

  /** Pending deliveries of enabled endpoints whose next attempt is due at `nowMs`. */
  due(nowMs: number, limit: number): DueDelivery[] {
    return this.dueStatement.all(nowMs, limit).map((row) => ({
      messageId: row.message_id,
      endpointId: row.endpoint_id,
      attempts: row.attempts,
      schedulePosition: row.schedule_position,
      body: row.body,
      url: row.url,
    }));
  }

  /** When the earliest pending delivery is due, if any. */
  nextDueAtMs(): number | undefined {
    const value = this.nextDueStatement.get() as number | null;
    return value ?? undefined;
  }

  /** Moves a pending delivery's next attempt (a lease while an attempt is in flight). */
  setNextAttempt(messageId: string, endpointId: string, atMs: number): void {
    this.leaseStatement.run(atMs, messageId, endpointId);
  }

  delivery(messageId: string, endpointId: string) {
    const row = this.deliveryStatement.get(messageId, endpointId);
    return (
      row && {
        status: row.status as DeliveryStatus,
        attempts: row.attempts,
        schedulePosition: row.schedule_position,
      }
    );
  }

  updateDelivery(delivery: {
    messageId: string;
    endpointId: string;
    status: DeliveryStatus;
    attempts: number;
    schedulePosition: number;
    nextAttemptAtMs: number | null;
    finishedAtMs: number | null;
  }): void {
    this.updateDeliveryStatement.run(delivery);
  }

  /** A disabled endpoint's waiting deliveries fail (recoverable later). */
  failPending(endpointId: string, nowMs: number): void {
    this.failPendingOfEndpointStatement.run(nowMs, endpointId);
  }

  insertAttempt(attempt: AttemptRecord): void {
    this.insertAttemptStatement.run(attempt);
  }

  /** The attempt log of an endpoint, most recent first. */
  attempts(endpointId: string, limit: number, offset: number) {
    return {
      rows: this.attemptsStatement.all(endpointId, limit, offset).map((row): WebhookAttempt => ({
        messageId: row.message_id,
        eventType: row.event_type,
        attempt: row.attempt,
        status: row.status as WebhookAttemptStatus,
        responseStatus: row.response_status,
        at: row.at,
      })),
      total: Number(this.countAttemptsStatement.get(endpointId)),
    };
  }

  /** Ids of the messages whose delivery to the endpoint failed at or after `sinceMs`. */
  failedSince(endpointId: string, sinceMs: number): string[] {
    return this.failedSinceStatement.all(endpointId, sinceMs) as string[];
  }
}
