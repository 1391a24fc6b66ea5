import type { WebhookAttempt, WebhookAttemptStatus } from '../../api/index.js';
import type { StoredSecret } from '../domain/webhooks.js';
import { countOf, isStoredId, type Sql } from './sql.js';

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
  disabled: number | boolean;
  failing_since: number | string | null;
  created_at: string;
}

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

/**
 * How a backend keeps the instants the outbox computes with: SQLite as milliseconds since the
 * epoch in `*_ms` integer columns, PostgreSQL as `timestamptz` (read back as ISO text).
 */
interface InstantColumns {
  failingSince: string;
  expiresAt: string;
  nextAttemptAt: string;
  finishedAt: string;
  write(ms: number | null): number | string | null;
  read(value: number | string | null): number | null;
}

const INSTANTS: Record<Sql['dialect'], InstantColumns> = {
  sqlite: {
    failingSince: 'failing_since_ms',
    expiresAt: 'expires_at_ms',
    nextAttemptAt: 'next_attempt_at_ms',
    finishedAt: 'finished_at_ms',
    write: (ms) => ms,
    read: (value) => (value === null ? null : Number(value)),
  },
  postgres: {
    failingSince: 'failing_since',
    expiresAt: 'expires_at',
    nextAttemptAt: 'next_attempt_at',
    finishedAt: 'finished_at',
    write: (ms) => (ms === null ? null : new Date(ms).toISOString()),
    read: (value) => (value === null ? null : Date.parse(String(value))),
  },
};

/** Webhook endpoints and their secrets, the message outbox, deliveries and the attempt log. */
export class WebhookStore {
  private readonly at: InstantColumns;
  private readonly endpointColumns: string;

  constructor(private readonly sql: Sql) {
    this.at = INSTANTS[sql.dialect];
    this.endpointColumns = `id, organization_id, url, event_types, disabled, ${this.at.failingSince} AS failing_since, created_at`;
  }

  private toEndpoint(row: EndpointRow): EndpointRecord {
    return {
      id: row.id,
      organizationId: row.organization_id,
      url: row.url,
      eventTypes: JSON.parse(row.event_types) as string[],
      disabled: Boolean(row.disabled),
      failingSinceMs: this.at.read(row.failing_since),
      createdAt: row.created_at,
    };
  }

  async insertEndpoint(endpoint: EndpointRecord, secret: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, disabled, ${this.at.failingSince}, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        endpoint.id,
        endpoint.organizationId,
        endpoint.url,
        JSON.stringify(endpoint.eventTypes),
        endpoint.disabled,
        this.at.write(endpoint.failingSinceMs),
        endpoint.createdAt,
      ],
    );
    await this.insertSecret(endpoint.id, secret);
  }

  async findEndpoint(organizationId: string, id: string): Promise<EndpointRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<EndpointRow>(
      `SELECT ${this.endpointColumns} FROM webhook_endpoints WHERE id = ? AND organization_id = ?`,
      [id, organizationId],
    );
    return row && this.toEndpoint(row);
  }

  async endpointById(id: string): Promise<EndpointRecord | undefined> {
    const row = await this.sql.get<EndpointRow>(
      `SELECT ${this.endpointColumns} FROM webhook_endpoints WHERE id = ?`,
      [id],
    );
    return row && this.toEndpoint(row);
  }

  async listEndpoints(organizationId: string, limit: number, offset: number) {
    const rows = await this.sql.all<EndpointRow>(
      `SELECT ${this.endpointColumns} FROM webhook_endpoints WHERE organization_id = ?
       ORDER BY seq LIMIT ? OFFSET ?`,
      [organizationId, limit, offset],
    );
    return {
      rows: rows.map((row) => this.toEndpoint(row)),
      total: await countOf(
        this.sql,
        'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE organization_id = ?',
        [organizationId],
      ),
    };
  }

  /** The enabled endpoints of an organization (the caller filters by event type). */
  async enabledEndpoints(organizationId: string): Promise<EndpointRecord[]> {
    const rows = await this.sql.all<EndpointRow>(
      `SELECT ${this.endpointColumns} FROM webhook_endpoints
       WHERE organization_id = ? AND NOT disabled ORDER BY seq`,
      [organizationId],
    );
    return rows.map((row) => this.toEndpoint(row));
  }

  async deleteEndpoint(id: string): Promise<void> {
    await this.sql.run('DELETE FROM webhook_endpoints WHERE id = ?', [id]);
  }

  async setEndpointHealth(
    id: string,
    disabled: boolean,
    failingSinceMs: number | null,
  ): Promise<void> {
    await this.sql.run(
      `UPDATE webhook_endpoints SET disabled = ?, ${this.at.failingSince} = ? WHERE id = ?`,
      [disabled, this.at.write(failingSinceMs), id],
    );
  }

  /** The current secret starts to expire; the new one becomes current. */
  async rotateSecret(
    endpointId: string,
    secret: string,
    previousExpiresAtMs: number,
  ): Promise<void> {
    await this.sql.run(
      `UPDATE webhook_secrets SET ${this.at.expiresAt} = ? WHERE endpoint_id = ? AND ${this.at.expiresAt} IS NULL`,
      [this.at.write(previousExpiresAtMs), endpointId],
    );
    await this.insertSecret(endpointId, secret);
  }

  private async insertSecret(endpointId: string, secret: string): Promise<void> {
    await this.sql.run('INSERT INTO webhook_secrets (endpoint_id, secret) VALUES (?, ?)', [
      endpointId,
      secret,
    ]);
  }

  async secrets(endpointId: string): Promise<StoredSecret[]> {
    const rows = await this.sql.all<{ secret: string; expires_at: number | string | null }>(
      `SELECT secret, ${this.at.expiresAt} AS expires_at FROM webhook_secrets WHERE endpoint_id = ? ORDER BY seq`,
      [endpointId],
    );
    return rows.map((row) => ({ secret: row.secret, expiresAtMs: this.at.read(row.expires_at) }));
  }

  /** A message and, for each endpoint given, a delivery whose first attempt is due then. */
  async enqueue(
    message: {
      id: string;
      organizationId: string;
      eventType: string;
      body: string;
      createdAt: string;
    },
    endpointIds: readonly string[],
    firstAttemptAtMs: number,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_messages (id, organization_id, event_type, body, created_at)
       VALUES (?, ?, ?, ?, ?)`,
      [message.id, message.organizationId, message.eventType, message.body, message.createdAt],
    );
    for (const endpointId of endpointIds) {
      await this.sql.run(
        `INSERT INTO webhook_deliveries (message_id, endpoint_id, status, ${this.at.nextAttemptAt})
         VALUES (?, ?, 'pending', ?)`,
        [message.id, endpointId, this.at.write(firstAttemptAtMs)],
      );
    }
  }

  /** Pending deliveries of enabled endpoints whose next attempt is due at `nowMs`. */
  async due(nowMs: number, limit: number): Promise<DueDelivery[]> {
    const rows = await this.sql.all<{
      message_id: string;
      endpoint_id: string;
      attempts: number;
      schedule_position: number;
      body: string;
      url: string;
    }>(
      `SELECT d.message_id, d.endpoint_id, d.attempts, d.schedule_position, m.body, e.url
       FROM webhook_deliveries d
       JOIN webhook_messages m ON m.id = d.message_id
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.${this.at.nextAttemptAt} <= ? AND NOT e.disabled
       ORDER BY d.${this.at.nextAttemptAt}, m.seq LIMIT ?`,
      [this.at.write(nowMs), limit],
    );
    return rows.map((row) => ({
      messageId: row.message_id,
      endpointId: row.endpoint_id,
      attempts: row.attempts,
      schedulePosition: row.schedule_position,
      body: row.body,
      url: row.url,
    }));
  }

  /** When the earliest pending delivery is due, if any. */
  async nextDueAtMs(): Promise<number | undefined> {
    const row = await this.sql.get<{ next: number | string | null }>(
      `SELECT MIN(d.${this.at.nextAttemptAt}) AS next FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND NOT e.disabled`,
    );
    return this.at.read(row?.next ?? null) ?? undefined;
  }

  /**
   * Takes a due delivery for one attempt, holding it back until `untilMs` (a lease: past it, an
   * attempt whose process died is made again). Compare and set: the update applies only while
   * the delivery is still due, so of several processes that saw it due, one takes it.
   */
  async claim(
    messageId: string,
    endpointId: string,
    nowMs: number,
    untilMs: number,
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE webhook_deliveries SET ${this.at.nextAttemptAt} = ?
       WHERE message_id = ? AND endpoint_id = ? AND status = 'pending' AND ${this.at.nextAttemptAt} <= ?`,
      [this.at.write(untilMs), messageId, endpointId, this.at.write(nowMs)],
    );
    return changed === 1;
  }

  /** Moves a pending delivery's next attempt (an abandoned attempt is due again at once). */
  async setNextAttempt(messageId: string, endpointId: string, atMs: number): Promise<void> {
    await this.sql.run(
      `UPDATE webhook_deliveries SET ${this.at.nextAttemptAt} = ?
       WHERE message_id = ? AND endpoint_id = ? AND status = 'pending'`,
      [this.at.write(atMs), messageId, endpointId],
    );
  }

  async delivery(messageId: string, endpointId: string) {
    if (!isStoredId(messageId) || !isStoredId(endpointId)) return undefined;
    const row = await this.sql.get<{ status: string; attempts: number; schedule_position: number }>(
      'SELECT status, attempts, schedule_position FROM webhook_deliveries WHERE message_id = ? AND endpoint_id = ?',
      [messageId, endpointId],
    );
    return (
      row && {
        status: row.status as DeliveryStatus,
        attempts: row.attempts,
        schedulePosition: row.schedule_position,
      }
    );
  }

  async updateDelivery(delivery: {
    messageId: string;
    endpointId: string;
    status: DeliveryStatus;
    attempts: number;
    schedulePosition: number;
    nextAttemptAtMs: number | null;
    finishedAtMs: number | null;
  }): Promise<void> {
    await this.sql.run(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, schedule_position = ?,
         ${this.at.nextAttemptAt} = ?, ${this.at.finishedAt} = ?
       WHERE message_id = ? AND endpoint_id = ?`,
      [
        delivery.status,
        delivery.attempts,
        delivery.schedulePosition,
        this.at.write(delivery.nextAttemptAtMs),
        this.at.write(delivery.finishedAtMs),
        delivery.messageId,
        delivery.endpointId,
      ],
    );
  }

  /** A disabled endpoint's waiting deliveries fail (recoverable later). */
  async failPending(endpointId: string, nowMs: number): Promise<void> {
    await this.sql.run(
      `UPDATE webhook_deliveries SET status = 'failed', ${this.at.nextAttemptAt} = NULL, ${this.at.finishedAt} = ?
       WHERE endpoint_id = ? AND status = 'pending'`,
      [this.at.write(nowMs), endpointId],
    );
  }

  async insertAttempt(attempt: AttemptRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_attempts (message_id, endpoint_id, attempt, status, response_status, at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [
        attempt.messageId,
        attempt.endpointId,
        attempt.attempt,
        attempt.status,
        attempt.responseStatus,
        attempt.at,
      ],
    );
  }

  /** The attempt log of an endpoint, most recent first. */
  async attempts(endpointId: string, limit: number, offset: number) {
    const rows = await this.sql.all<{
      message_id: string;
      event_type: string;
      attempt: number;
      status: string;
      response_status: number | null;
      at: string;
    }>(
      `SELECT a.message_id, m.event_type, a.attempt, a.status, a.response_status, a.at
       FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
       WHERE a.endpoint_id = ? ORDER BY a.seq DESC LIMIT ? OFFSET ?`,
      [endpointId, limit, offset],
    );
    return {
      rows: rows.map((row): WebhookAttempt => ({
        messageId: row.message_id,
        eventType: row.event_type,
        attempt: row.attempt,
        status: row.status as WebhookAttemptStatus,
        responseStatus: row.response_status,
        at: row.at,
      })),
      total: await countOf(
        this.sql,
        'SELECT COUNT(*) AS n FROM webhook_attempts WHERE endpoint_id = ?',
        [endpointId],
      ),
    };
  }

  /** Ids of the messages whose delivery to the endpoint failed at or after `sinceMs`. */
  async failedSince(endpointId: string, sinceMs: number): Promise<string[]> {
    const rows = await this.sql.all<{ message_id: string }>(
      `SELECT message_id FROM webhook_deliveries
       WHERE endpoint_id = ? AND status = 'failed' AND ${this.at.finishedAt} >= ?`,
      [endpointId, this.at.write(sinceMs)],
    );
    return rows.map((row) => row.message_id);
  }
}
