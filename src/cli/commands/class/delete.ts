import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Delete a class and its subtree',
  arguments: { class: argument('by id or label') },
  examples: ['books class delete Region --yes'],
  async run(ctx, { class: given }) {
    const workspaceId = await ctx.workspaceId();
    const id = await ctx.classId(workspaceId, given);
    await ctx.prompts.confirmDestructive(`Delete class ${given} and every class under it?`);
    await (await ctx.api()).classes.delete(workspaceId, id);
    ctx.wrote(`deleted class ${given} (${id}) and its subtree`);
  },
});
