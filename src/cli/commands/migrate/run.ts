import { argument, defineCommand, negatable } from '../../command.js';
import { importWith } from '../../ledgers/importing.js';
import { progressMode } from '../../terminal/progress.js';
import { importOptions, parseImport } from '../je/import.js';

/**
 * `migrate run FILE.csv`: the whole Procedure in one command, safe to rerun: preconditions,
 * the file checked whole, missing accounts (with --create-missing-accounts), the migration
 * created or continued, history sent in keyed batches with a checkpoint, reconciliation, then
 * finalization and a wait for enrichmentRulesSeededAt.
 */
export const command = defineCommand({
  summary:
    'Migrate a CSV general ledger: checked whole, sent in keyed batches, reconciled, finalized; safe to rerun',
  arguments: { file: argument('the general ledger: the books CSV, or a QuickBooks IIF export') },
  options: {
    ...importOptions,
    finalize: negatable('--no-finalize', 'leave the migration open (finalize later)'),
    wait: negatable('--no-wait', 'finalize without waiting for the rules'),
  },
  examples: [
    'books migrate run ledger.csv --create-missing-accounts --receipt receipt.csv',
    'books migrate run ledger.csv --dry-run',
  ],
  async run(ctx, { file, finalize, wait, ...flags }) {
    const progress = progressMode(flags);
    await importWith(
      ctx,
      { ...parseImport(file, { ...flags, basis: 'cash' }), migration: { finalize, wait } },
      undefined,
      { progress },
    );
  },
});
