import { defineCommand, listOptions } from '../../command.js';

export const command = defineCommand({
  summary: 'List workspaces',
  options: listOptions('every workspace'),
  paged: true,
  examples: ['books workspace list', 'books workspace list --output csv > workspaces.csv'],
  async run(ctx, flags) {
    const limit = ctx.output.listLimit(flags);
    const workspaces = await (await ctx.api()).workspaces.upTo(limit);
    await ctx.output.list(
      [
        { header: 'ID', value: (w) => w.id },
        { header: 'Name', value: (w) => w.name },
        { header: 'Timezone', value: (w) => w.timezone },
        { header: 'Created', value: (w) => w.createdAt },
      ],
      workspaces,
    );
  },
});
