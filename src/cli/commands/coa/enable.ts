import { argument, defineCommand } from '../../command.js';
import { setArchived } from './shared.js';

export const command = defineCommand({
  summary: 'Restore an archived account',
  arguments: { account: argument('by id, code or name') },
  examples: ['books coa enable "Old Savings"'],
  run: (ctx, { account }) => setArchived(ctx, account, false),
});
