import { argument, defineCommand } from '../../command.js';
import { groupFields } from './shared.js';

export const command = defineCommand({
  summary: 'Show a group',
  arguments: { group: argument('by id or name') },
  examples: ['books group get Banks'],
  async run(ctx, { group }) {
    const entityId = await ctx.entityId();
    const result = await (
      await ctx.api()
    ).accountGroups.get(entityId, await ctx.groupId(entityId, group));
    ctx.output.record(groupFields(result.group), result);
  },
});
