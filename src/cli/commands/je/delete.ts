import { argument, defineCommand } from '../../command.js';
import { basisOption, parseBasis } from './shared.js';

export const command = defineCommand({
  summary: 'Delete a journal entry',
  arguments: { id: argument('the journal entry id') },
  options: { basis: basisOption },
  examples: ['books je delete 0192f3c4-… --yes'],
  async run(ctx, { id, basis }) {
    const ledgerBasis = parseBasis(basis);
    const entityId = await ctx.entityId();
    await ctx.prompts.confirmDestructive(`Delete journal entry ${id}?`);
    await (await ctx.api()).journalEntries.delete(entityId, id, ledgerBasis);
    ctx.wrote(`deleted journal entry ${id}`);
  },
});
