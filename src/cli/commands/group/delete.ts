import { argument, defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'Delete a group (its contents move up)',
  arguments: { group: argument('by id or name') },
  examples: ['books group delete Banks --yes'],
  async run(ctx, { group }) {
    const entityId = await ctx.entityId();
    const id = await ctx.groupId(entityId, group);
    await ctx.prompts.confirmDestructive(
      `Delete account group ${group}? Its groups and accounts move up.`,
    );
    await (await ctx.api()).accountGroups.delete(entityId, id);
    ctx.wrote(`deleted account group ${group} (${id})`);
  },
});
