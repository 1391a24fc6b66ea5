import { argument, defineCommand, flag } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';

/**
 * `books sandbox workspace update`: the workspace's flags the local platform lets the sandbox set
 * (local-platform.md §4; the hosted platform sets them itself). `--custom-chart`: accounts keep
 * the codes they are given (an import keeps a file's codes, and an export writes them), where a
 * standard chart allocates the next free code of each type's range.
 */
export const command = defineCommand({
  summary: "Set a workspace's chart: custom (accounts keep their codes) or standard",
  arguments: {
    workspace: argument('by id or name (else --workspace or the profile)', {
      optional: true,
      names: 'workspace',
    }),
  },
  options: {
    customChart: flag('--custom-chart', 'accounts keep the codes they are given'),
    standardChart: flag('--standard-chart', 'codes are allocated from each type’s range'),
  },
  examples: [
    'books sandbox workspace update "Main Street Bakery" --custom-chart',
    'books sandbox workspace update --standard-chart',
  ],
  async run(ctx, { workspace, customChart, standardChart }) {
    if (customChart === standardChart)
      throw new UsageError(
        customChart
          ? '--custom-chart and --standard-chart contradict each other: give one'
          : 'nothing to change: pass --custom-chart or --standard-chart',
      );
    const id = await ctx.workspaceId(workspace);
    const result = await (
      await ctx.api()
    ).sandbox.updateWorkspace(id, {
      customChartOfAccounts: customChart === true,
    });
    ctx.wrote(`${customChart ? 'custom' : 'standard'} chart of accounts`);
    ctx.output.record(
      [
        ['id', result.workspace.id],
        ['name', result.workspace.name],
        ['chart', result.workspace.customChartOfAccounts ? 'custom' : 'standard'],
      ],
      result,
    );
  },
});
