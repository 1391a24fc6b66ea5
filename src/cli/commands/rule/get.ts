import { argument, defineCommand } from '../../command.js';
import { ruleFields } from './shared.js';

export const command = defineCommand({
  summary: 'Show a rule',
  arguments: { id: argument('the rule id', { names: 'rule' }) },
  examples: ['books rule get 0192f3c4-…'],
  async run(ctx, { id }) {
    const result = await (await ctx.api()).transactionRules.get(await ctx.workspaceId(), id);
    ctx.output.record(ruleFields(result.rule), result);
  },
});
