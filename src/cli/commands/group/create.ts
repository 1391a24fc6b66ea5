import { ACCOUNT_TYPES } from '../../../api/index.js';
import { defineCommand, text } from '../../command.js';
import { groupFields, parseType } from './shared.js';

export const command = defineCommand({
  summary: 'Create an account group',
  options: {
    name: text('--name <name>', 'the group name', { required: true }),
    type: text('--type <type>', 'account type', { required: true, choices: ACCOUNT_TYPES }),
    parent: text('--parent <group>', 'parent group (by id or name)'),
  },
  examples: ['books group create --name Banks --type Cash'],
  async run(ctx, { name, type: typeText, parent }) {
    const type = parseType(typeText);
    const entityId = await ctx.entityId();
    const parentGroupId = parent ? await ctx.groupId(entityId, parent) : undefined;
    const { group } = await (
      await ctx.api()
    ).accountGroups.create(entityId, { name, type, ...(parentGroupId && { parentGroupId }) });
    ctx.wrote(`created account group "${group.name}" (${group.id})`);
    ctx.output.record(groupFields(group), { group });
  },
});
