import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Show a workspace (by id or name)',
  arguments: { workspace: argument('by id or name') },
  examples: ['books workspace get "Main Street Bakery"'],
  async run(ctx, { workspace }) {
    const id = await ctx.workspaceId(workspace);
    const result = await (await ctx.api()).workspaces.get(id);
    ctx.output.record(
      [
        ['id', result.workspace.id],
        ['name', result.workspace.name],
        ['timezone', result.workspace.timezone],
        ['created', result.workspace.createdAt],
      ],
      result,
    );
  },
});
