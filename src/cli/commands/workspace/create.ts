import {
  WORKSPACE_TIMEZONES,
  type CreateWorkspaceBody,
  type WorkspaceTimezone,
} from '../../../api/index.js';
import { argument, defineCommand, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';

export function parse(name: string, flags: { timezone?: string | undefined }): CreateWorkspaceBody {
  if (
    flags.timezone !== undefined &&
    !(WORKSPACE_TIMEZONES as readonly string[]).includes(flags.timezone)
  ) {
    throw new UsageError(`--timezone must be one of ${WORKSPACE_TIMEZONES.join(', ')}`);
  }
  return { name, ...(flags.timezone && { timezone: flags.timezone as WorkspaceTimezone }) };
}

export const command = defineCommand({
  summary: "Create a workspace: one client's books (the organization, the firm, owns it)",
  arguments: { name: argument('the workspace name', { ask: 'Workspace name' }) },
  options: {
    timezone: text(
      '--timezone <tz>',
      'IANA time zone of the workspace (default America/Los_Angeles)',
    ),
  },
  examples: ['books workspace create "Main Street Bakery" --timezone America/New_York'],
  async run(ctx, { name, timezone }) {
    const body = parse(name, { timezone });
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
  },
});
