import { defineCommand, listOptions } from '../../../command.js';

export const command = defineCommand({
  summary: 'List the entities of the workspace',
  options: listOptions('every entity'),
  paged: true,
  examples: ['books sandbox entity list -w "Rivera Group"'],
  async run(ctx, flags) {
    const limit = ctx.output.listLimit(flags);
    const entities = await (await ctx.api()).sandbox.entitiesUpTo(await ctx.workspaceId(), limit);
    await ctx.output.list(
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
