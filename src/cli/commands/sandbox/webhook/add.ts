import { checkWebhookUrl, WEBHOOK_EVENT_TYPES } from '../../../../api/index.js';
import { argument, defineCommand, repeatable } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';
import { endpointFields } from './shared.js';

/** `sandbox webhook add URL [--event TYPE]...`: the secret is printed once, as data. */
export const command = defineCommand({
  summary: 'Add an endpoint and print its signing secret',
  arguments: { url: argument('https://…, or http:// on a loopback host') },
  options: {
    event: repeatable(
      '--event <type>',
      'an event type to subscribe to (repeatable; none: every type)',
    ),
  },
  examples: [
    'books sandbox webhook add https://hooks.example.com/books --event feed.connection.disconnected',
    'books sandbox webhook add http://127.0.0.1:4020/',
  ],
  async run(ctx, { url, event: eventTypes }) {
    const checked = checkWebhookUrl(url);
    if ('problem' in checked) throw new UsageError(checked.problem);
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
    ctx.output.record([...endpointFields(created.endpoint), ['secret', created.secret]], created);
  },
});
