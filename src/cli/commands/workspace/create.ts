import {
  WORKSPACE_TIMEZONES,
  type CreateWorkspaceBody,
  type WorkspaceTimezone,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';

export function parse(name: string, flags: { timezone?: string }): CreateWorkspaceBody {
  if (
    flags.timezone !== undefined &&
    !(WORKSPACE_TIMEZONES as readonly string[]).includes(flags.timezone)
  ) {
    throw new UsageError(`--timezone must be one of ${WORKSPACE_TIMEZONES.join(', ')}`);
  }
  return { name, ...(flags.timezone && { timezone: flags.timezone as WorkspaceTimezone }) };
}

export async function run(ctx: CommandContext, body: CreateWorkspaceBody): Promise<void> {
  const { workspace } = await (await ctx.api()).workspaces.create(body);
  ctx.wrote(`created workspace "${workspace.name}" (${workspace.id})`);
  ctx.output.record(
    [
      ['id', workspace.id],
      ['name', workspace.name],
      ['timezone', workspace.timezone],
    ],
    { workspace },
  );
}
