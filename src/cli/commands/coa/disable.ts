import { argument, defineCommand } from '../../command.js';
import { setArchived } from './shared.js';

export const command = defineCommand({
  summary: 'Archive an account (it keeps its history)',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa disable "Old Savings"'],
  run: (ctx, { account }) => setArchived(ctx, account, true),
});
