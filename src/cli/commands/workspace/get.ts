import type { CommandContext } from '../../context.js';

export async function run(ctx: CommandContext, workspace: string): Promise<void> {
  const id = await ctx.workspaceId(workspace);
  const result = await (await ctx.api()).workspaces.get(id);
  ctx.output.record(
    [
      ['id', result.workspace.id],
      ['name', result.workspace.name],
      ['timezone', result.workspace.timezone],
      ['created', result.workspace.createdAt],
    ],
    result,
  );
}
