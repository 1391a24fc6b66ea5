import { argument, defineCommand } from '../../command.js';
import { printAccount } from './shared.js';

export const command = defineCommand({
  summary: 'Rename an account',
  arguments: { account: argument('by id, code or name'), name: argument('the new name') },
  examples: ['books coa rename 1000 "Operating Checking"'],
  async run(ctx, { account: given, name }) {
    const entityId = await ctx.entityId();
    const { account } = await (
      await ctx.api()
    ).accounts.update(entityId, await ctx.accountId(entityId, given), { name });
    ctx.wrote(`renamed account ${account.code} to "${account.name}"`);
    await printAccount(ctx, entityId, account);
  },
});
