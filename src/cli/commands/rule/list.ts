import { defineCommand } from '../../command.js';
import { ruleFields } from './shared.js';

export const command = defineCommand({
  summary: 'List rules in application order',
  examples: ['books rule list'],
  async run(ctx) {
    const rules = await (await ctx.api()).transactionRules.all(await ctx.workspaceId());
    await ctx.output.table(
      [
        { header: '#', value: (r) => String(rules.indexOf(r) + 1), align: 'right' },
        { header: 'When', value: (r) => ruleFields(r)[1]![1] },
        { header: 'Then', value: (r) => ruleFields(r)[2]![1] },
        { header: 'Enabled', value: (r) => (r.isDisabled ? 'no' : 'yes') },
        { header: 'ID', value: (r) => r.id },
      ],
      rules,
    );
  },
});
