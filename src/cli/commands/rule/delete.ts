import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Delete a rule',
  arguments: { id: argument('the rule id', { names: 'rule' }) },
  examples: ['books rule delete 0192f3c4-… --yes'],
  async run(ctx, { id }) {
    const workspaceId = await ctx.workspaceId();
    await ctx.prompts.confirmDestructive(`Delete rule ${id}?`);
    await (await ctx.api()).transactionRules.delete(workspaceId, id);
    ctx.wrote(`deleted rule ${id}`);
  },
});
