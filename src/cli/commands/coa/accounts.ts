import {
  ACCOUNT_TYPES,
  type Account,
  type AccountType,
  type CreateAccountBody,
} from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { confirmDestructive } from '../../confirm.js';
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

export async function list(ctx: CommandContext, flags: { tree?: boolean } = {}): Promise<void> {
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const accounts = await api.accounts.all(entityId);
  const groupPath = new Map<string, string>();
  if (flags.tree) {
    const groups = await api.accountGroups.all(entityId);
    const byId = new Map(groups.map((g) => [g.id, g]));
    for (const g of groups) {
      const names = [];
      for (
        let at: typeof g | undefined = g;
        at;
        at = at.parentGroupId ? byId.get(at.parentGroupId) : undefined
      )
        names.unshift(at.name);
      groupPath.set(g.id, names.join(' › '));
    }
  }
  await ctx.output.table(
    [
      ...(flags.tree
        ? [
            {
              header: 'Group',
              value: (a: Account) => (a.groupId ? (groupPath.get(a.groupId) ?? '') : ''),
            },
          ]
        : []),
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
  ctx.wrote(`created account ${account.code} ${account.name}`);
  ctx.output.record(fields(account), { account });
}

export async function get(ctx: CommandContext, given: string): Promise<void> {
  const entityId = await ctx.entityId();
  const result = await (
    await ctx.api()
  ).accounts.get(entityId, await ctx.accountId(entityId, given));
  ctx.output.record(fields(result.account), result);
}

export async function rename(ctx: CommandContext, given: string, name: string): Promise<void> {
  const entityId = await ctx.entityId();
  const { account } = await (
    await ctx.api()
  ).accounts.update(entityId, await ctx.accountId(entityId, given), { name });
  ctx.wrote(`renamed account ${account.code} to "${account.name}"`);
  ctx.output.record(fields(account), { account });
}

/** `coa move A --group G | --no-group` */
export async function move(
  ctx: CommandContext,
  given: string,
  flags: { group?: string | boolean },
): Promise<void> {
  if (flags.group === undefined) throw new UsageError('pass --group G or --no-group');
  const entityId = await ctx.entityId();
  const { resolveGroup } = await import('../group/groups.js');
  const groupId =
    flags.group === false ? null : await resolveGroup(ctx, entityId, String(flags.group));
  const { account } = await (
    await ctx.api()
  ).accounts.update(entityId, await ctx.accountId(entityId, given), { groupId });
  ctx.wrote(
    `moved account ${account.code} ${groupId ? `into group ${groupId}` : 'out of its group'}`,
  );
  ctx.output.record(fields(account), { account });
}

export async function setDisabled(
  ctx: CommandContext,
  given: string,
  disabled: boolean,
): Promise<void> {
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const id = await ctx.accountId(entityId, given);
  const { account } = disabled
    ? await api.accounts.disable(entityId, id)
    : await api.accounts.enable(entityId, id);
  ctx.wrote(`${disabled ? 'archived' : 'restored'} account ${account.code} ${account.name}`);
  ctx.output.record(fields(account), { account });
}

/** Merges SOURCE into TARGET; a blocked merge prints each blocker (the error handler does). */
export async function merge(ctx: CommandContext, source: string, target: string): Promise<void> {
  const entityId = await ctx.entityId();
  const sourceAccountId = await ctx.accountId(entityId, source);
  const targetAccountId = await ctx.accountId(entityId, target);
  await confirmDestructive(ctx, `Merge ${source} into ${target}? ${source} is deleted afterwards.`);
  const { account } = await (
    await ctx.api()
  ).accounts.merge(entityId, { sourceAccountId, targetAccountId });
  ctx.wrote(`merged ${source} into ${account.code} ${account.name}`);
  ctx.output.record(fields(account), { account });
}

export async function remove(ctx: CommandContext, given: string): Promise<void> {
  const entityId = await ctx.entityId();
  const id = await ctx.accountId(entityId, given);
  await confirmDestructive(ctx, `Delete account ${given}?`);
  await (await ctx.api()).accounts.delete(entityId, id);
  ctx.wrote(`deleted account ${given} (${id})`);
}

/**
 * `coa import FILE.csv`: columns name and type (or account_type), optional code and group
 * (header names match case-insensitively, ignoring spaces and underscores). Every row is checked
 * before anything is sent; then bulk creates of up to 100, each all-or-nothing.
 */
export async function importFile(ctx: CommandContext, file: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('csv-parse/sync');
  const { ExitCode, UserError } = await import('../../exitCodes.js');
  let records: Record<string, string>[];
  try {
    records = parse(readFileSync(file, 'utf8'), {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.toLowerCase().replace(/[\s_]/g, '')),
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    throw new UserError(`${file}: ${(error as Error).message}`, ExitCode.InvalidFile);
  }
  const problems: string[] = [];
  const bodies = records.map((record, index) => {
    const line = index + 2;
    try {
      return parseCreate({
        name: record.name,
        type: record.type ?? record.accounttype,
        code: record.code,
        group: record.group,
      });
    } catch (error) {
      problems.push(`${file}:${line}: ${(error as Error).message.replace(/^--(\w+)/, '$1')}`);
      return undefined;
    }
  });
  if (records.length === 0)
    problems.push(`${file}: no accounts (a header row name,type and one row per account)`);
  if (problems.length > 0)
    throw new UserError(`${problems.join('\n')}\nnothing was sent`, ExitCode.InvalidFile);
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const created = [];
  const valid = bodies as CreateAccountBody[];
  for (let start = 0; start < valid.length; start += 100) {
    created.push(
      ...(await api.accounts.bulkCreate(entityId, valid.slice(start, start + 100))).data,
    );
  }
  ctx.wrote(`imported ${created.length} accounts from ${file}`);
  await ctx.output.table(
    [
      { header: 'Code', value: (a) => a.code },
      { header: 'Name', value: (a) => a.name },
      { header: 'Type', value: (a) => a.type },
      { header: 'ID', value: (a) => a.id },
    ],
    created,
  );
}
