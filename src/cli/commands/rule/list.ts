import { defineCommand, listOptions } from '../../command.js';
import { ruleFields } from './shared.js';

export const command = defineCommand({
  summary: 'List rules in application order',
  options: listOptions('every rule'),
  paged: true,
  examples: ['books rule list'],
  async run(ctx, flags) {
    const limit = ctx.output.listLimit(flags);
    const rules = await (await ctx.api()).transactionRules.upTo(await ctx.workspaceId(), limit);
    await ctx.output.list(
      [
        { header: '#', value: (r) => String(rules.items.indexOf(r) + 1), align: 'right' },
        { header: 'When', value: (r) => ruleFields(r)[1]![1] },
        { header: 'Then', value: (r) => ruleFields(r)[2]![1] },
        { header: 'Enabled', value: (r) => (r.isDisabled ? 'no' : 'yes') },
        { header: 'ID', value: (r) => r.id },
      ],
      rules,
    );
  },
});
