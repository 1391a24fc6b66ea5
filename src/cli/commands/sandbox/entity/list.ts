import { defineCommand } from '../../../command.js';

export const command = defineCommand({
  summary: 'List the entities of the workspace',
  examples: ['books sandbox entity list -w "Blue Bottle Books"'],
  async run(ctx) {
    const entities = await (await ctx.api()).sandbox.entities(await ctx.workspaceId());
    await ctx.output.table(
      [
        { header: 'ID', value: (e) => e.id },
        { header: 'Name', value: (e) => e.name },
        { header: 'Bookkeeping start', value: (e) => e.bookkeepingStartDate ?? '' },
        { header: 'Lock date', value: (e) => e.lockDate ?? '' },
        { header: 'Accrual', value: (e) => (e.accrualLedgerOpen ? 'open' : '') },
      ],
      entities,
    );
  },
});
