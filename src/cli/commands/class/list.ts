import { defineCommand, flag } from '../../command.js';
import { treeLabels } from '../../render/tree.js';

export const command = defineCommand({
  summary: 'List classes, each tree under its root',
  options: { tree: flag('--tree', 'indent classes under their parents') },
  examples: ['books class list --tree'],
  async run(ctx, { tree }) {
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
    await ctx.output.table(
      [
        { header: 'Label', value: (c) => c.shown },
        { header: 'ID', value: (c) => c.id },
        { header: 'Parent', value: (c) => c.parentClassId ?? '' },
      ],
      rows,
      classes,
    );
  },
});
