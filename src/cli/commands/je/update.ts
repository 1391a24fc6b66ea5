import type { UpdateJournalEntryBody } from '../../../api/index.js';
import { dayOption } from '../../terminal/dates.js';
import { argument, defineCommand, flag, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import {
  basisOption,
  entryFields,
  lineOptions,
  linesOf,
  parseBasis,
  parseCreate,
} from './shared.js';

export const command = defineCommand({
  summary: 'Change a journal entry (only what is given; new lines replace them all)',
  arguments: { id: argument('the journal entry id') },
  options: {
    date: text('--date <date>', 'move the entry to this date'),
    memo: text('--memo <text>', 'new memo'),
    clearMemo: flag('--clear-memo', 'remove the memo'),
    ...lineOptions,
    basis: basisOption,
  },
  examples: ['books je update 0192f3c4-… --date 2026-02-02 --memo "Moved to February"'],
  async run(ctx, { id, ...flags }) {
    const body: UpdateJournalEntryBody = {};
    if (flags.date !== undefined) {
      body.date = dayOption('--date', flags.date);
    }
    if (flags.memo !== undefined) body.memo = flags.memo;
    if (flags.clearMemo) body.memo = null;
    const ledgerBasis = parseBasis(flags.basis);
    // New lines replace the whole set, as the API does.
    const draft =
      flags.debit.length > 0 || flags.credit.length > 0
        ? parseCreate({
            date: '2000-01-01',
            debit: flags.debit,
            credit: flags.credit,
            decimalComma: flags.decimalComma,
          })
        : undefined;
    if (Object.keys(body).length === 0 && !draft) {
      throw new UsageError(
        'nothing to change: pass --date, --memo, --clear-memo, or new --debit/--credit lines',
      );
    }
    const entityId = await ctx.entityId();
    if (draft) body.lines = await linesOf(ctx, entityId, draft);
    const { journalEntry } = await (
      await ctx.api()
    ).journalEntries.update(entityId, id, body, ledgerBasis);
    ctx.wrote(`updated journal entry ${journalEntry.id}`);
    ctx.output.record(entryFields(ctx, journalEntry), { journalEntry });
  },
});
