import type { UpdateTransactionRuleBody } from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';
import { parseThen, parseWhen, resolveActions, ruleFields } from './shared.js';

/** Changes a rule: what the flags give, and its enabled state (`rule enable|disable`). */
export async function updateRule(
  ctx: CommandContext,
  id: string,
  flags: {
    when?: string[];
    then?: string[];
    note?: string | undefined;
    clearNote?: boolean | undefined;
  },
  isDisabled?: boolean,
): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  const body: UpdateTransactionRuleBody = {};
  if (flags.when?.length) body.conditions = parseWhen(flags.when);
  if (flags.then?.length)
    body.actions = await resolveActions(ctx, workspaceId, parseThen(flags.then));
  if (flags.note !== undefined) body.note = flags.note;
  if (flags.clearNote) body.note = null;
  if (isDisabled !== undefined) body.isDisabled = isDisabled;
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: pass --when, --then, --note or --clear-note');
  const { rule } = await (await ctx.api()).transactionRules.update(workspaceId, id, body);
  ctx.wrote(`updated rule ${rule.id}`);
  ctx.output.record(ruleFields(rule), { rule });
}
