import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Delete a workspace and everything in it',
  arguments: { workspace: argument('by id or name') },
  examples: ['books workspace delete "Old Client" --yes'],
  async run(ctx, { workspace }) {
    const id = await ctx.workspaceId(workspace);
    await ctx.prompts.confirmDestructive(`Delete workspace ${workspace} and everything in it?`);
    await (await ctx.api()).workspaces.delete(id);
    ctx.wrote(`deleted workspace ${workspace} (${id})`);
  },
});
