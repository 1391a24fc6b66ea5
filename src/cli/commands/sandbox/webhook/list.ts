import { defineCommand, listOptions } from '../../../command.js';
import { endpointColumns } from './shared.js';

export const command = defineCommand({
  summary: "List the organization's webhook endpoints",
  options: listOptions('every endpoint'),
  paged: true,
  examples: ['books sandbox webhook list'],
  async run(ctx, flags) {
    const limit = ctx.output.listLimit(flags);
    await ctx.output.list(
      endpointColumns,
      await (await ctx.api()).sandbox.webhookEndpointsUpTo(limit),
    );
  },
});
