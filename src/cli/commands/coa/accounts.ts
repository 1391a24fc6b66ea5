import {
  ACCOUNT_TYPES,
  type Account,
  type AccountType,
  type CreateAccountBody,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';

const fields = (account: Account): [string, string][] => [
  ['id', account.id],
  ['code', account.code],
  ['name', account.name],
  ['type', account.type],
  ['class', account.class],
  ['group', account.groupId ?? ''],
  ['archived', account.isDisabled ? 'yes' : 'no'],
];

export async function list(ctx: CommandContext): Promise<void> {
  const accounts = await (await ctx.api()).accounts.all(await ctx.entityId());
  await ctx.output.table(
    [
      { header: 'Code', value: (a) => a.code },
      { header: 'Name', value: (a) => a.name },
      { header: 'Type', value: (a) => a.type },
      { header: 'Class', value: (a) => a.class },
      { header: 'Archived', value: (a) => (a.isDisabled ? 'yes' : '') },
      { header: 'ID', value: (a) => a.id },
    ],
    accounts,
  );
}

export function parseCreate(flags: {
  name?: string;
  type?: string;
  code?: string;
  group?: string;
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

export async function create(ctx: CommandContext, body: CreateAccountBody): Promise<void> {
  const entityId = await ctx.entityId();
  const { account } = await (await ctx.api()).accounts.create(entityId, body);
  ctx.wrote(`entity ${entityId}: created account ${account.code} ${account.name}`);
  ctx.output.record(fields(account), { account });
}

export async function get(ctx: CommandContext, given: string): Promise<void> {
  const entityId = await ctx.entityId();
  const result = await (
    await ctx.api()
  ).accounts.get(entityId, await ctx.accountId(entityId, given));
  ctx.output.record(fields(result.account), result);
}
