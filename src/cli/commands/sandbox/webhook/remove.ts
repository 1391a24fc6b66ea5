import { argument, defineCommand } from '../../../command.js';

export const command = defineCommand({
  summary: 'Remove an endpoint, its pending deliveries and its attempt log',
  arguments: { endpoint: argument('the endpoint id') },
  examples: ['books sandbox webhook remove 0192f3c4-… --yes'],
  async run(ctx, { endpoint: id }) {
    const api = await ctx.api();
    const { endpoint } = await api.sandbox.webhookEndpoint(id);
    await ctx.prompts.confirmDestructive(
      `Remove the webhook endpoint for ${endpoint.url}, its pending deliveries and its log?`,
    );
    await api.sandbox.removeWebhookEndpoint(id);
    ctx.wrote(`organization: removed webhook endpoint ${id}`);
  },
});
