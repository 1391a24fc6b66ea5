import type { UpdateAccountGroupBody } from '../../../api/index.js';
import { argument, defineCommand, flag, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import { groupFields } from './shared.js';

export const command = defineCommand({
  summary: 'Rename or move a group',
  arguments: { group: argument('by id or name') },
  options: {
    name: text('--name <name>', 'the new name'),
    parent: text('--parent <group>', 'new parent'),
    top: flag('--top', 'move to the top level'),
  },
  examples: ['books group update Premises --parent Expenses', 'books group update Premises --top'],
  async run(ctx, { group: given, name, parent, top }) {
    const entityId = await ctx.entityId();
    const id = await ctx.groupId(entityId, given);
    const body: UpdateAccountGroupBody = {};
    if (name !== undefined) body.name = name;
    if (parent !== undefined) body.parentGroupId = await ctx.groupId(entityId, parent);
    if (top) body.parentGroupId = null;
    if (Object.keys(body).length === 0)
      throw new UsageError('nothing to change: pass --name, --parent or --top');
    const { group } = await (await ctx.api()).accountGroups.update(entityId, id, body);
    ctx.wrote(`updated account group "${group.name}"`);
    ctx.output.record(groupFields(group), { group });
  },
});
