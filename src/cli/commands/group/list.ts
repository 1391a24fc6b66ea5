import { defineCommand, flag, listOptions } from '../../command.js';
import { firstOf } from '../../terminal/output.js';
import { treeLabels } from '../../render/tree.js';

export const command = defineCommand({
  summary: 'List groups in chart order',
  options: {
    tree: flag('--tree', 'indent groups under their parents'),
    ...listOptions('every group'),
  },
  paged: true,
  examples: ['books group list --tree'],
  async run(ctx, { tree, ...flags }) {
    const limit = ctx.output.listLimit(flags);
    const groups = await (await ctx.api()).accountGroups.all(await ctx.entityId());
    const labels = tree
      ? treeLabels(
          groups,
          (g) => g.id,
          (g) => g.parentGroupId,
          (g) => g.name,
        )
      : groups.map((g) => g.name);
    await ctx.output.list(
      [
        { header: 'Name', value: (g) => labels[groups.indexOf(g)]! },
        { header: 'Type', value: (g) => g.type },
        { header: 'ID', value: (g) => g.id },
      ],
      firstOf(groups, limit),
    );
  },
});
