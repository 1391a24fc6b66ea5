import { argument, defineCommand, text } from '../../../command.js';
import { day, entityFields } from './shared.js';

export const command = defineCommand({
  summary: 'Create an entity in the workspace',
  arguments: { name: argument('the entity name', { ask: 'Entity name' }) },
  options: { startDate: text('--start-date <date>', 'bookkeeping start date (YYYY-MM-DD)') },
  examples: [
    'books sandbox entity create "Main Street Bakery" --start-date 2026-01-01 --workspace "Blue Bottle Books"',
  ],
  async run(ctx, { name, startDate }) {
    const bookkeepingStartDate = day(startDate, '--start-date');
    const api = await ctx.api();
    const workspaceId = await ctx.workspaceId();
    const { entity } = await api.sandbox.createEntity(workspaceId, {
      name,
      ...(bookkeepingStartDate && { bookkeepingStartDate }),
    });
    ctx.wrote(`created entity "${entity.name}" (${entity.id})`);
    ctx.output.record(entityFields(entity), { entity });
  },
});
