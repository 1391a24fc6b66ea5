import { Type, type Static } from '@sinclair/typebox';
import { CONNECTION_ERROR_CODES } from './bankFeeds.js';
import { TimestampSchema, UuidSchema } from './common.js';

/** The catalogue of event types (platform-api.md, Events). */
export const WEBHOOK_EVENT_TYPES = ['feed.connection.disconnected'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The envelope's `version`: shared by every event type, raised on a breaking change. */
export const WEBHOOK_ENVELOPE_VERSION = 1;

export const FeedConnectionDisconnectedSchema = Type.Object(
  {
    connectionId: UuidSchema,
    workspaceId: UuidSchema,
    entityId: UuidSchema,
    bankName: Type.String(),
    errorCode: Type.Union(CONNECTION_ERROR_CODES.map((c) => Type.Literal(c))),
  },
  { title: 'FeedConnectionDisconnected' },
);
export type FeedConnectionDisconnected = Static<typeof FeedConnectionDisconnectedSchema>;

/** The body of every delivery. */
export const WebhookEnvelopeSchema = Type.Object(
  {
    event: Type.String(),
    version: Type.Integer(),
    occurredAt: Type.Integer({ description: 'Unix time in seconds' }),
    payload: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'WebhookEnvelope' },
);
export type WebhookEnvelope = Static<typeof WebhookEnvelopeSchema>;

export const WebhookEndpointSchema = Type.Object(
  {
    id: UuidSchema,
    url: Type.String(),
    eventTypes: Type.Array(Type.String(), { description: 'empty: every event type' }),
    disabled: Type.Boolean(),
    createdAt: TimestampSchema,
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const CreateWebhookEndpointBodySchema = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  eventTypes: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
});
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBodySchema>;

const SecretSchema = Type.String({ description: 'whsec_ followed by base64 of 24 bytes' });

export const CreateWebhookEndpointResponseSchema = Type.Object({
  endpoint: WebhookEndpointSchema,
  secret: SecretSchema,
});
export type CreateWebhookEndpointResponse = Static<typeof CreateWebhookEndpointResponseSchema>;

export const WebhookEndpointResponseSchema = Type.Object({ endpoint: WebhookEndpointSchema });

export const RotateWebhookSecretResponseSchema = Type.Object({ secret: SecretSchema });

export const WEBHOOK_ATTEMPT_STATUSES = ['succeeded', 'failed'] as const;
export type WebhookAttemptStatus = (typeof WEBHOOK_ATTEMPT_STATUSES)[number];

export const WebhookAttemptSchema = Type.Object(
  {
    messageId: UuidSchema,
    eventType: Type.String(),
    attempt: Type.Integer({ minimum: 1 }),
    status: Type.Union(WEBHOOK_ATTEMPT_STATUSES.map((s) => Type.Literal(s))),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: 'null when no response came (refused, timed out)',
    }),
    at: TimestampSchema,
  },
  { title: 'WebhookAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttemptSchema>;

export const RecoverWebhookMessagesBodySchema = Type.Object({ since: TimestampSchema });
export type RecoverWebhookMessagesBody = Static<typeof RecoverWebhookMessagesBodySchema>;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * The rule for a webhook endpoint's URL, shared by the platform (which refuses it, 400) and the
 * CLI (which says so before any request): HTTPS, or plain HTTP on a loopback host. The URL is
 * given back as the WHATWG parser normalizes it.
 */
export function checkWebhookUrl(text: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `url must be an absolute https:// URL, not "${text}"` };
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return { url: url.href };
  if (url.protocol === 'http:') {
    return {
      problem: `url must use https:// (plain http:// only for loopback hosts), not "${text}"`,
    };
  }
  return { problem: `url must be an https:// URL, not "${text}"` };
}
