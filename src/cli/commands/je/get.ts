import { argument, defineCommand } from '../../command.js';
import { basisOption, entryFields, parseBasis } from './shared.js';

export const command = defineCommand({
  summary: 'Show a journal entry',
  arguments: { id: argument('the journal entry id') },
  options: { basis: basisOption },
  examples: ['books je get 0192f3c4-…'],
  async run(ctx, { id, basis }) {
    const ledgerBasis = parseBasis(basis);
    const result = await (
      await ctx.api()
    ).journalEntries.get(await ctx.entityId(), id, ledgerBasis);
    ctx.output.record(entryFields(ctx, result.journalEntry), result);
  },
});
