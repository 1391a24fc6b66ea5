import { defineCommand } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import { parseThen, parseWhen, resolveActions, ruleFields, ruleOptions } from './shared.js';

export const command = defineCommand({
  summary: 'Create a rule',
  options: ruleOptions,
  examples: [
    'books rule create --when description_contains=uber,lyft --when direction_is=outflow --then account_id=Travel',
  ],
  async run(ctx, { when, then, note }) {
    const conditions = parseWhen(when);
    const thens = parseThen(then);
    if (conditions.length === 0 || thens.length === 0)
      throw new UsageError('a rule needs at least one --when and one --then');
    const workspaceId = await ctx.workspaceId();
    const actions = await resolveActions(ctx, workspaceId, thens);
    const { rule } = await (
      await ctx.api()
    ).transactionRules.create(workspaceId, {
      conditions,
      actions,
      ...(note !== undefined && { note }),
    });
    ctx.wrote(`created rule ${rule.id}`);
    ctx.output.record(ruleFields(rule), { rule });
  },
});
