import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Delete an account nothing has posted to',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa delete "Typo Account" --yes'],
  async run(ctx, { account }) {
    const entityId = await ctx.entityId();
    const id = await ctx.accountId(entityId, account);
    await ctx.prompts.confirmDestructive(`Delete account ${account}?`);
    await (await ctx.api()).accounts.delete(entityId, id);
    ctx.wrote(`deleted account ${account} (${id})`);
  },
});
