import type { Account } from '../../../api/index.js';
import { defineCommand, flag, listOptions } from '../../command.js';

export const command = defineCommand({
  summary: 'List accounts, archived included',
  options: {
    tree: flag('--tree', 'show each account under its group'),
    ...listOptions('every account'),
  },
  paged: true,
  examples: ['books coa list', 'books coa list --tree'],
  async run(ctx, { tree, ...flags }) {
    const limit = ctx.output.listLimit(flags);
    const entityId = await ctx.entityId();
    const api = await ctx.api();
    const accounts = await api.accounts.upTo(entityId, limit);
    const groupPath = new Map<string, string>();
    if (tree) {
      const groups = await api.accountGroups.all(entityId);
      const byId = new Map(groups.map((g) => [g.id, g]));
      for (const g of groups) {
        const names = [];
        for (
          let at: typeof g | undefined = g;
          at;
          at = at.parentGroupId ? byId.get(at.parentGroupId) : undefined
        )
          names.unshift(at.name);
        groupPath.set(g.id, names.join(' › '));
      }
    }
    await ctx.output.list(
      [
        ...(tree
          ? [
              {
                header: 'Group',
                value: (a: Account) => (a.groupId ? (groupPath.get(a.groupId) ?? '') : ''),
              },
            ]
          : []),
        { header: 'Code', value: (a) => a.code },
        { header: 'Name', value: (a) => a.name },
        { header: 'Type', value: (a) => a.type },
        { header: 'Class', value: (a) => a.class },
        { header: 'Archived', value: (a) => (a.isDisabled ? 'yes' : '') },
        { header: 'ID', value: (a) => a.id },
      ],
      accounts,
    );
  },
});
