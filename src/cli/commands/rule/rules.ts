import {
  ACTION_TYPES,
  CONDITION_TYPES,
  type RuleAction,
  type RuleCondition,
  type TransactionRule,
  type UpdateTransactionRuleBody,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { confirmDestructive } from '../../confirm.js';
import { UsageError } from '../../exitCodes.js';
import { resolveClass } from '../class/classes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--when TYPE=VALUE[,VALUE]...`: values are ORed, whens ANDed. */
export function parseWhen(texts: string[] = []): RuleCondition[] {
  return texts.map((text) => {
    const at = text.indexOf('=');
    const type = text.slice(0, at);
    if (at <= 0 || !(CONDITION_TYPES as readonly string[]).includes(type)) {
      throw new UsageError(
        `--when takes TYPE=VALUE[,VALUE]... with TYPE one of ${CONDITION_TYPES.join(', ')}; got "${text}"`,
      );
    }
    const value = text
      .slice(at + 1)
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (value.length === 0) throw new UsageError(`--when ${type}= needs at least one value`);
    return { conditionType: type as RuleCondition['conditionType'], value };
  });
}

/** `--then TYPE=VALUE`: an account (id, code or name) or a class (id or label). */
export function parseThen(
  texts: string[] = [],
): { actionType: RuleAction['actionType']; reference: string }[] {
  return texts.map((text) => {
    const at = text.indexOf('=');
    const type = text.slice(0, at);
    if (
      at <= 0 ||
      !(ACTION_TYPES as readonly string[]).includes(type) ||
      text.slice(at + 1).trim() === ''
    ) {
      throw new UsageError(
        `--then takes TYPE=VALUE with TYPE one of ${ACTION_TYPES.join(', ')}; got "${text}"`,
      );
    }
    return { actionType: type as RuleAction['actionType'], reference: text.slice(at + 1).trim() };
  });
}

async function resolveActions(
  ctx: CommandContext,
  workspaceId: string,
  thens: ReturnType<typeof parseThen>,
): Promise<RuleAction[]> {
  const actions: RuleAction[] = [];
  for (const { actionType, reference } of thens) {
    let value = reference;
    if (!UUID.test(reference)) {
      value =
        actionType === 'class_id'
          ? await resolveClass(ctx, workspaceId, reference)
          : await ctx.accountId(await ctx.entityId(), reference);
    }
    actions.push({ actionType, value });
  }
  return actions;
}

const describe = (rule: TransactionRule): [string, string][] => [
  ['id', rule.id],
  ['when', rule.conditions.map((c) => `${c.conditionType}=${c.value.join(',')}`).join(' and ')],
  ['then', rule.actions.map((a) => `${a.actionType}=${a.value}`).join(', ')],
  ['note', rule.note ?? ''],
  ['enabled', rule.isDisabled ? 'no' : 'yes'],
];

export async function list(ctx: CommandContext): Promise<void> {
  const rules = await (await ctx.api()).transactionRules.all(await ctx.workspaceId());
  await ctx.output.table(
    [
      { header: '#', value: (r) => String(rules.indexOf(r) + 1), align: 'right' },
      { header: 'When', value: (r) => describe(r)[1]![1] },
      { header: 'Then', value: (r) => describe(r)[2]![1] },
      { header: 'Enabled', value: (r) => (r.isDisabled ? 'no' : 'yes') },
      { header: 'ID', value: (r) => r.id },
    ],
    rules,
  );
}

export async function create(
  ctx: CommandContext,
  flags: { when?: string[]; then?: string[]; note?: string },
): Promise<void> {
  const conditions = parseWhen(flags.when);
  const thens = parseThen(flags.then);
  if (conditions.length === 0 || thens.length === 0)
    throw new UsageError('a rule needs at least one --when and one --then');
  const workspaceId = await ctx.workspaceId();
  const actions = await resolveActions(ctx, workspaceId, thens);
  const { rule } = await (
    await ctx.api()
  ).transactionRules.create(workspaceId, {
    conditions,
    actions,
    ...(flags.note !== undefined && { note: flags.note }),
  });
  ctx.wrote(`created rule ${rule.id}`);
  ctx.output.record(describe(rule), { rule });
}

export async function get(ctx: CommandContext, id: string): Promise<void> {
  const result = await (await ctx.api()).transactionRules.get(await ctx.workspaceId(), id);
  ctx.output.record(describe(result.rule), result);
}

export async function update(
  ctx: CommandContext,
  id: string,
  flags: { when?: string[]; then?: string[]; note?: string; clearNote?: boolean },
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
  ctx.output.record(describe(rule), { rule });
}

export async function remove(ctx: CommandContext, id: string): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  await confirmDestructive(ctx, `Delete rule ${id}?`);
  await (await ctx.api()).transactionRules.delete(workspaceId, id);
  ctx.wrote(`deleted rule ${id}`);
}
