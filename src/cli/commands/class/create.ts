import { argument, defineCommand, text } from '../../command.js';
import { classFields } from './shared.js';

export const command = defineCommand({
  summary: 'Create a class',
  arguments: { label: argument('the class label', { ask: 'Class label' }) },
  options: {
    parent: text('--parent <class>', 'parent class (by id or label); none starts a new dimension'),
  },
  examples: ['books class create Region', 'books class create West --parent Region'],
  async run(ctx, { label, parent }) {
    const workspaceId = await ctx.workspaceId();
    const parentClassId = parent ? await ctx.classId(workspaceId, parent) : undefined;
    const result = await (
      await ctx.api()
    ).classes.create(workspaceId, { label, ...(parentClassId && { parentClassId }) });
    ctx.wrote(`created class "${result.class.label}" (${result.class.id})`);
    ctx.output.record(classFields(result.class), result);
  },
});
