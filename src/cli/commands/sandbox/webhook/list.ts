import { defineCommand } from '../../../command.js';
import { endpointColumns } from './shared.js';

export const command = defineCommand({
  summary: "List the organization's webhook endpoints",
  examples: ['books sandbox webhook list'],
  async run(ctx) {
    await ctx.output.table(endpointColumns, await (await ctx.api()).sandbox.webhookEndpoints());
  },
});
