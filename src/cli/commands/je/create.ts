import { defineCommand, text } from '../../command.js';
import { basisOption, entryFields, lineOptions, linesOf, parseCreate } from './shared.js';

export const command = defineCommand({
  summary: 'Create a balanced journal entry',
  options: {
    date: text('--date <date>', 'the entry date (YYYY-MM-DD)'),
    ...lineOptions,
    memo: text('--memo <text>', 'memo'),
    basis: basisOption,
  },
  examples: [
    'books je create --date 2026-01-05 --debit Checking=5000 --credit Sales=5000 --memo "January sales"',
  ],
  async run(ctx, flags) {
    const draft = parseCreate(flags);
    const entityId = await ctx.entityId();
    const { journalEntry } = await (
      await ctx.api()
    ).journalEntries.create(entityId, {
      date: draft.date,
      ledgerBasis: draft.ledgerBasis,
      ...(draft.memo !== undefined && { memo: draft.memo }),
      lines: await linesOf(ctx, entityId, draft),
    });
    ctx.wrote(`created journal entry ${journalEntry.id} dated ${journalEntry.dateOnly}`);
    ctx.output.record(entryFields(ctx, journalEntry), { journalEntry });
  },
});
