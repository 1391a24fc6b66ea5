import type { CommandContext } from '../../context.js';
import { confirmDestructive } from '../../confirm.js';

export async function run(ctx: CommandContext, workspace: string): Promise<void> {
  const id = await ctx.workspaceId(workspace);
  await confirmDestructive(ctx, `Delete workspace ${workspace} and everything in it?`);
  await (await ctx.api()).workspaces.delete(id);
  ctx.wrote(`deleted workspace ${workspace} (${id})`);
}
