import { defineCommand, flag, listOptions } from '../../command.js';
import { firstOf } from '../../terminal/output.js';
import { treeLabels } from '../../render/tree.js';

export const command = defineCommand({
  summary: 'List classes, each tree under its root',
  options: {
    tree: flag('--tree', 'indent classes under their parents'),
    ...listOptions('every class'),
  },
  paged: true,
  examples: ['books class list --tree'],
  async run(ctx, { tree, ...flags }) {
    const limit = ctx.output.listLimit(flags);
    const classes = await (await ctx.api()).classes.all(await ctx.workspaceId());
    const labels = tree
      ? treeLabels(
          classes,
          (c) => c.id,
          (c) => c.parentClassId,
          (c) => c.label,
        )
      : classes.map((c) => c.label);
    const rows = classes.map((c, i) => ({ ...c, shown: labels[i]! }));
    const shown = firstOf(rows, limit);
    await ctx.output.list(
      [
        { header: 'Label', value: (c) => c.shown },
        { header: 'ID', value: (c) => c.id },
        { header: 'Parent', value: (c) => c.parentClassId ?? '' },
      ],
      shown,
      classes.slice(0, shown.items.length),
    );
  },
});
