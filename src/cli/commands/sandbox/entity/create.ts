import { argument, defineCommand, text } from '../../../command.js';
import { day, entityFields, fiscalYearStartFlag } from './shared.js';

export const command = defineCommand({
  summary:
    "Create an entity in the workspace: one of the client's businesses, with its own chart and ledgers",
  arguments: { name: argument('the entity name', { ask: 'Entity name' }) },
  options: {
    startDate: text('--start-date <date>', 'bookkeeping start date (YYYY-MM-DD)'),
    fiscalYearStart: text(
      '--fiscal-year-start <MM-DD>',
      'the first day of its fiscal year (default 01-01; 04-01 for a year from April)',
    ),
  },
  examples: [
    'books sandbox entity create "Main Street Bakery LLC" --start-date 2026-01-01 --workspace "Main Street Bakery"',
    'books sandbox entity create "Thames Lettings Ltd" --fiscal-year-start 04-01',
  ],
  async run(ctx, { name, startDate, fiscalYearStart }) {
    const bookkeepingStartDate = day(startDate, '--start-date');
    const fiscal = fiscalYearStartFlag(fiscalYearStart);
    const api = await ctx.api();
    const workspaceId = await ctx.workspaceId();
    const { entity } = await api.sandbox.createEntity(workspaceId, {
      name,
      ...(bookkeepingStartDate && { bookkeepingStartDate }),
      ...(fiscal && { fiscalYearStart: fiscal }),
    });
    ctx.wrote(`created entity "${entity.name}" (${entity.id})`);
    ctx.output.record(entityFields(entity), { entity });
  },
});
