import type { WebhookAttempt, WebhookEndpoint } from '../../../api/index.js';
import { WEBHOOK_EVENT_TYPES } from '../../../api/index.js';
import { isCalendarDay } from '../../../core/calendar.js';
import { confirmDestructive } from '../../confirm.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';
import { listLimit } from '../../output.js';

const fields = (endpoint: WebhookEndpoint): [string, string][] => [
  ['id', endpoint.id],
  ['url', endpoint.url],
  ['events', events(endpoint)],
  ['status', status(endpoint)],
  ['created', endpoint.createdAt],
];

const events = (endpoint: WebhookEndpoint) =>
  endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(', ');

const status = (endpoint: WebhookEndpoint) => (endpoint.disabled ? 'disabled' : 'enabled');

/** `sandbox webhook add URL [--event TYPE]...`: the secret is printed once, as data. */
export async function add(ctx: CommandContext, url: string, eventTypes: string[]): Promise<void> {
  for (const type of eventTypes) {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
      throw new UsageError(
        `--event "${type}" is not an event type (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`,
      );
    }
  }
  const created = await (await ctx.api()).sandbox.addWebhookEndpoint({ url, eventTypes });
  ctx.wrote(
    `organization: added webhook endpoint ${created.endpoint.id} for ${created.endpoint.url}`,
  );
  ctx.output.note('books: keep the secret: receivers verify every delivery with it');
  ctx.output.record([...fields(created.endpoint), ['secret', created.secret]], created);
}

export async function list(ctx: CommandContext): Promise<void> {
  const endpoints = await (await ctx.api()).sandbox.webhookEndpoints();
  await ctx.output.table(
    [
      { header: 'ID', value: (e) => e.id },
      { header: 'URL', value: (e) => e.url },
      { header: 'Events', value: events },
      { header: 'Status', value: status },
      { header: 'Created', value: (e) => e.createdAt },
    ],
    endpoints,
  );
}

export async function remove(ctx: CommandContext, id: string): Promise<void> {
  const api = await ctx.api();
  const { endpoint } = await api.sandbox.webhookEndpoint(id);
  await confirmDestructive(
    ctx,
    `Remove the webhook endpoint for ${endpoint.url}, its pending deliveries and its log?`,
  );
  await api.sandbox.removeWebhookEndpoint(id);
  ctx.wrote(`organization: removed webhook endpoint ${id}`);
}

/** `sandbox webhook rotate ID`: the new secret; the previous one signs too for 24 hours. */
export async function rotate(ctx: CommandContext, id: string): Promise<void> {
  const rotated = await (await ctx.api()).sandbox.rotateWebhookSecret(id);
  ctx.wrote(`organization: rotated the secret of webhook endpoint ${id}`);
  ctx.output.note('books: the previous secret keeps signing too for 24 hours');
  ctx.output.record([['secret', rotated.secret]], rotated);
}

export async function attempts(
  ctx: CommandContext,
  id: string,
  flags: { limit?: string; all?: boolean },
): Promise<void> {
  const limit = listLimit(flags, ctx.output.isTTY);
  const log = await (await ctx.api()).sandbox.webhookAttempts(id, limit);
  await ctx.output.table<WebhookAttempt>(
    [
      { header: 'At', value: (a) => a.at },
      { header: 'Message', value: (a) => a.messageId },
      { header: 'Event', value: (a) => a.eventType },
      { header: 'Attempt', value: (a) => String(a.attempt), align: 'right' },
      { header: 'Status', value: (a) => a.status },
      {
        header: 'Response',
        value: (a) => (a.responseStatus === null ? 'none' : String(a.responseStatus)),
      },
    ],
    log,
  );
}

/** `sandbox webhook retry ENDPOINT MESSAGE`, or `--since TIME` for every failed message. */
export async function retry(
  ctx: CommandContext,
  endpointId: string,
  messageId: string | undefined,
  flags: { since?: string },
): Promise<void> {
  if ((messageId === undefined) === (flags.since === undefined)) {
    throw new UsageError('give a message id, or --since TIME for every failed message, not both');
  }
  const api = await ctx.api();
  if (messageId !== undefined) {
    await api.sandbox.retryWebhookMessage(endpointId, messageId);
    ctx.wrote(
      `organization: message ${messageId} will be sent to endpoint ${endpointId} again now`,
    );
    return;
  }
  const since = sinceTime(flags.since!);
  await api.sandbox.recoverWebhookMessages(endpointId, since);
  ctx.wrote(
    `organization: messages that failed since ${since} will be sent to ${endpointId} again`,
  );
}

/** A date-time, or a calendar day (its midnight UTC). */
function sinceTime(text: string): string {
  if (isCalendarDay(text)) return `${text}T00:00:00.000Z`;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(ms)) {
    throw new UsageError(
      `--since must be a date-time (2026-11-21T09:00:00Z) or a date (YYYY-MM-DD), not "${text}"`,
    );
  }
  return new Date(ms).toISOString();
}
