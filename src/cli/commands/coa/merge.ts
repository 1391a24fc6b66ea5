import { argument, defineCommand } from '../../command.js';
import { mergeAccounts } from './shared.js';

export const command = defineCommand({
  summary: 'Merge SOURCE into TARGET (lines, categories and rules move; SOURCE is deleted)',
  arguments: {
    source: argument('the account merged away (by id, code or name)'),
    target: argument('the account that stays'),
  },
  examples: ['books coa merge "Chase Checking (old books)" "Chase Checking" --yes'],
  run: (ctx, { source, target }) => mergeAccounts(ctx, source, target),
});
