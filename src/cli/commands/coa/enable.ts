import { argument, defineCommand } from '../../command.js';
import { accountFields } from './shared.js';

export const command = defineCommand({
  summary: 'Restore an archived account',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa enable "Old Savings"'],
  async run(ctx, { account: given }) {
    const entityId = await ctx.entityId();
    const id = await ctx.accountId(entityId, given);
    const { account } = await (await ctx.api()).accounts.enable(entityId, id);
    ctx.wrote(`restored account ${account.code} ${account.name}`);
    ctx.output.record(accountFields(account), { account });
  },
});
