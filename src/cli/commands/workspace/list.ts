import { defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'List workspaces',
  examples: ['books workspace list', 'books workspace list --output csv > workspaces.csv'],
  async run(ctx) {
    const workspaces = await (await ctx.api()).workspaces.all();
    await ctx.output.table(
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
