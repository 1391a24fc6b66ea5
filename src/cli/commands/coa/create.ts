import { ACCOUNT_TYPES } from '../../../api/index.js';
import { defineCommand, text } from '../../command.js';
import { printAccount, parseCreate } from './shared.js';

export const command = defineCommand({
  summary: 'Create an account',
  options: {
    name: text('--name <name>', 'account name', { required: true }),
    type: text('--type <type>', 'account type, e.g. Cash, Income, "Operating Expenses"', {
      required: true,
      choices: ACCOUNT_TYPES,
    }),
    code: text('--code <code>', 'code (honored on a custom chart)'),
    group: text('--group <group>', 'account group, by id or name'),
  },
  examples: ['books coa create --name "Chase Checking" --type Cash'],
  async run(ctx, flags) {
    const body = parseCreate(flags);
    const entityId = await ctx.entityId();
    if (body.groupId) body.groupId = await ctx.groupId(entityId, body.groupId);
    const { account } = await (await ctx.api()).accounts.create(entityId, body);
    ctx.wrote(`created account ${account.code} ${account.name}`);
    await printAccount(ctx, entityId, account);
  },
});
