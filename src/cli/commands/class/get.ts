import { argument, defineCommand } from '../../command.js';
import { classFields } from './shared.js';

export const command = defineCommand({
  summary: 'Show a class',
  arguments: { class: argument('by id or label') },
  examples: ['books class get West'],
  async run(ctx, { class: given }) {
    const workspaceId = await ctx.workspaceId();
    const result = await (
      await ctx.api()
    ).classes.get(workspaceId, await ctx.classId(workspaceId, given));
    ctx.output.record(classFields(result.class), result);
  },
});
