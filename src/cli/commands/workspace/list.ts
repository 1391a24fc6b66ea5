import type { CommandContext } from '../../context.js';

export async function run(ctx: CommandContext): Promise<void> {
  const workspaces = await (await ctx.api()).workspaces.all();
  await ctx.output.table(
    [
      { header: 'ID', value: (w) => w.id },
      { header: 'Name', value: (w) => w.name },
      { header: 'Timezone', value: (w) => w.timezone },
      { header: 'Created', value: (w) => w.createdAt },
    ],
    workspaces,
  );
}
