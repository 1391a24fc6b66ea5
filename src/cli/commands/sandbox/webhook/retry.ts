import { isCalendarDay } from '../../../../core/calendar.js';
import { argument, defineCommand, text } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';

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

/** `sandbox webhook retry ENDPOINT MESSAGE`, or `--since TIME` for every failed message. */
export const command = defineCommand({
  summary: 'Send a message again now, or every message that failed since a time',
  arguments: {
    endpoint: argument('the endpoint id'),
    message: argument('the message id', { optional: true }),
  },
  options: {
    since: text('--since <time>', 'every message that failed since then (date-time or date)'),
  },
  examples: [
    'books sandbox webhook retry 0192f3c4-… msg_2k9…',
    'books sandbox webhook retry 0192f3c4-… --since 2026-11-21T09:00:00Z',
  ],
  async run(ctx, { endpoint: endpointId, message: messageId, since: sinceText }) {
    if ((messageId === undefined) === (sinceText === undefined)) {
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
    const since = sinceTime(sinceText!);
    await api.sandbox.recoverWebhookMessages(endpointId, since);
    ctx.wrote(
      `organization: messages that failed since ${since} will be sent to ${endpointId} again`,
    );
  },
});
