import type { WebhookAttempt } from '../../../../api/index.js';
import { argument, defineCommand, listOptions } from '../../../command.js';

export const command = defineCommand({
  summary: 'Delivery attempts of an endpoint, most recent first',
  arguments: { endpoint: argument('the endpoint id') },
  options: listOptions('every attempt'),
  paged: true,
  examples: ['books sandbox webhook attempts 0192f3c4-… --all'],
  async run(ctx, { endpoint, ...flags }) {
    const limit = ctx.output.listLimit(flags);
    const log = await (await ctx.api()).sandbox.webhookAttempts(endpoint, limit);
    await ctx.output.list<WebhookAttempt>(
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
  },
});
