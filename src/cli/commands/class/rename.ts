import { argument, defineCommand } from '../../command.js';
import { classFields } from './shared.js';

export const command = defineCommand({
  summary: 'Rename a class',
  arguments: { class: argument('by id or label'), label: argument('the new label') },
  examples: ['books class rename East Northeast'],
  async run(ctx, { class: given, label }) {
    const workspaceId = await ctx.workspaceId();
    const result = await (
      await ctx.api()
    ).classes.rename(workspaceId, await ctx.classId(workspaceId, given), label);
    ctx.wrote(`renamed class ${result.class.id} to "${label}"`);
    ctx.output.record(classFields(result.class), result);
  },
});
