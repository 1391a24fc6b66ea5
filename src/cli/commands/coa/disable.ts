import { argument, defineCommand } from '../../command.js';
import { accountFields } from './shared.js';

export const command = defineCommand({
  summary: 'Archive an account (it keeps its history)',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa disable "Old Savings"'],
  async run(ctx, { account: given }) {
    const entityId = await ctx.entityId();
    const id = await ctx.accountId(entityId, given);
    const { account } = await (await ctx.api()).accounts.disable(entityId, id);
    ctx.wrote(`archived account ${account.code} ${account.name}`);
    ctx.output.record(accountFields(account), { account });
  },
});
