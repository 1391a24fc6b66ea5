import {
  ACTION_TYPES,
  CONDITION_TYPES,
  DIRECTIONS,
  type RuleAction,
  type RuleCondition,
  type TransactionRule,
  type UpdateTransactionRuleBody,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { repeatable, text } from '../../command.js';
import { decimalToCents } from '../../../core/money.js';
import { UsageError } from '../../exitCodes.js';

/** The options `rule create` and `rule update` share. */
export const ruleOptions = {
  when: repeatable('--when <type=value,...>', 'a condition (repeatable, ANDed); values ORed'),
  then: repeatable(
    '--then <type=value>',
    'an action: account_id=ACCOUNT, class_id=CLASS or tax_code=CODE (repeatable)',
  ),
  note: text('--note <text>', 'an internal note'),
} as const;

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
    for (const one of value) {
      if (type.startsWith('amount_')) {
        try {
          decimalToCents(one);
        } catch {
          throw new UsageError(
            `--when ${type}: "${one}" is not an amount (a positive decimal such as 12.50; values are separated by commas, so no thousands separators)`,
          );
        }
      }
      if (type === 'direction_is' && !(DIRECTIONS as readonly string[]).includes(one))
        throw new UsageError(`--when direction_is takes ${DIRECTIONS.join(' or ')}, not "${one}"`);
    }
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

/** The actions of `--then`, each account or class resolved by the one rule of names. */
export async function resolveActions(
  ctx: CommandContext,
  workspaceId: string,
  thens: ReturnType<typeof parseThen>,
): Promise<RuleAction[]> {
  const actions: RuleAction[] = [];
  for (const { actionType, reference } of thens) {
    const value =
      actionType === 'tax_code'
        ? reference
        : actionType === 'class_id'
          ? await ctx.classId(workspaceId, reference)
          : await ctx.accountId(await ctx.entityId(), reference);
    actions.push({ actionType, value });
  }
  return actions;
}

/** A rule as `field value` lines. */
export const ruleFields = (rule: TransactionRule): [string, string][] => [
  ['id', rule.id],
  ['when', rule.conditions.map((c) => `${c.conditionType}=${c.value.join(',')}`).join(' and ')],
  ['then', rule.actions.map((a) => `${a.actionType}=${a.value}`).join(', ')],
  ['note', rule.note ?? ''],
  ['enabled', rule.isDisabled ? 'no' : 'yes'],
];

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
