import { defineCommand, listOptions } from '../../command.js';
import { printTransactions } from '../sandbox/feed/shared.js';

export const command = defineCommand({
  summary: 'List bank transactions with their category, rule and status, most recent first',
  options: listOptions('every transaction'),
  paged: true,
  examples: ['books transactions list --all --output csv > transactions.csv'],
  async run(ctx, flags) {
    const limit = ctx.output.listLimit(flags);
    const transactions = await (
      await ctx.api()
    ).sandbox.transactionsUpTo(await ctx.workspaceId(), limit);
    await printTransactions(ctx, transactions);
  },
});
