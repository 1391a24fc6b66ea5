import { argument, defineCommand } from '../../command.js';
import { printAccount } from './shared.js';

export const command = defineCommand({
  summary: 'Show an account (by id, code or name)',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa get 1000', 'books coa get "Chase Checking" --json'],
  async run(ctx, { account }) {
    const entityId = await ctx.entityId();
    const result = await (
      await ctx.api()
    ).accounts.get(entityId, await ctx.accountId(entityId, account));
    await printAccount(ctx, entityId, result.account, { jsonValue: result });
  },
});
