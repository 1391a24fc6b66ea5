import { defineCommand, text } from '../../command.js';
import { mergeAccounts } from '../coa/shared.js';

export const command = defineCommand({
  summary:
    'Merge a migration-time account into its bank-feed account (blockers printed one per line)',
  options: {
    source: text('--source <account>', 'the migration-time account', { required: true }),
    target: text('--target <account>', 'the bank-feed account', { required: true }),
  },
  examples: [
    'books migrate merge --source "Chase Checking (old books)" --target "Chase Checking" --yes',
  ],
  run: (ctx, { source, target }) => mergeAccounts(ctx, source, target),
});
