import {
  ACCOUNT_TYPES,
  type Account,
  type AccountType,
  type CreateAccountBody,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';

/** An account as `field value` lines; its group by name when known. */
export const accountFields = (account: Account, groupName?: string): [string, string][] => [
  ['id', account.id],
  ['code', account.code],
  ['name', account.name],
  ['type', account.type],
  ['class', account.class],
  ['group', groupName ?? account.groupId ?? ''],
  ['archived', account.isDisabled ? 'yes' : 'no'],
];

/**
 * Prints an account as a person reads it (its group by name, asked for unless the caller knows
 * it) or as the API answered it.
 */
export async function printAccount(
  ctx: CommandContext,
  entityId: string,
  account: Account,
  options: { jsonValue?: unknown; groupName?: string } = {},
): Promise<void> {
  let groupName = options.groupName;
  if (groupName === undefined && account.groupId && !ctx.output.json) {
    groupName = (await (await ctx.api()).accountGroups.get(entityId, account.groupId)).group.name;
  }
  ctx.output.record(accountFields(account, groupName), options.jsonValue ?? { account });
}

/** An account to create, from flags (`coa create`) or a row of a chart file (`coa import`). */
export function parseCreate(flags: {
  name?: string | undefined;
  type?: string | undefined;
  code?: string | undefined;
  group?: string | undefined;
}): CreateAccountBody {
  if (!flags.name) throw new UsageError('--name is required');
  const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === flags.type?.toLowerCase());
  if (!type) throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}`);
  return {
    name: flags.name,
    type: type as AccountType,
    ...(flags.code && { code: flags.code }),
    ...(flags.group && { groupId: flags.group }),
  };
}

/** `coa disable` and `coa enable`: archives an account (it keeps its history) or restores it. */
export async function setArchived(
  ctx: CommandContext,
  given: string,
  archived: boolean,
): Promise<void> {
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const id = await ctx.accountId(entityId, given);
  const { account } = archived
    ? await api.accounts.disable(entityId, id)
    : await api.accounts.enable(entityId, id);
  ctx.wrote(`${archived ? 'archived' : 'restored'} account ${account.code} ${account.name}`);
  await printAccount(ctx, entityId, account);
}

/** Merges SOURCE into TARGET; a blocked merge prints each blocker (the error handler does). */
export async function mergeAccounts(
  ctx: CommandContext,
  source: string,
  target: string,
): Promise<void> {
  const entityId = await ctx.entityId();
  const sourceAccountId = await ctx.accountId(entityId, source);
  const targetAccountId = await ctx.accountId(entityId, target);
  await ctx.prompts.confirmDestructive(
    `Merge ${source} into ${target}? ${source} is deleted afterwards.`,
  );
  const { account } = await (
    await ctx.api()
  ).accounts.merge(entityId, { sourceAccountId, targetAccountId });
  ctx.wrote(`merged ${source} into ${account.code} ${account.name}`);
  await printAccount(ctx, entityId, account);
}
