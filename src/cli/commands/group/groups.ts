import {
  ACCOUNT_TYPES,
  type AccountGroup,
  type AccountType,
  type UpdateAccountGroupBody,
} from '../../../api/index.js';
import { pick, type CommandContext } from '../../context.js';
import { confirmDestructive } from '../../confirm.js';
import { UsageError } from '../../exitCodes.js';
import { treeLabels } from '../../render/tree.js';

const fields = (g: AccountGroup): [string, string][] => [
  ['id', g.id],
  ['name', g.name],
  ['type', g.type],
  ['parent', g.parentGroupId ?? ''],
];

export function parseType(text: string | undefined): AccountType {
  const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === text?.toLowerCase());
  if (!type) throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}`);
  return type;
}

/** A group of the entity by id or name. */
export async function resolveGroup(
  ctx: CommandContext,
  entityId: string,
  given: string,
): Promise<string> {
  const groups = await (await ctx.api()).accountGroups.all(entityId);
  return pick(groups, given, 'account group', (g) => ({ id: g.id, name: g.name })).id;
}

export async function list(ctx: CommandContext, flags: { tree?: boolean }): Promise<void> {
  const groups = await (await ctx.api()).accountGroups.all(await ctx.entityId());
  const labels = flags.tree
    ? treeLabels(
        groups,
        (g) => g.id,
        (g) => g.parentGroupId,
        (g) => g.name,
      )
    : groups.map((g) => g.name);
  await ctx.output.table(
    [
      { header: 'Name', value: (g) => labels[groups.indexOf(g)]! },
      { header: 'Type', value: (g) => g.type },
      { header: 'ID', value: (g) => g.id },
    ],
    groups,
  );
}

export async function create(
  ctx: CommandContext,
  flags: { name?: string; type?: string; parent?: string },
): Promise<void> {
  if (!flags.name) throw new UsageError('--name is required');
  const type = parseType(flags.type);
  const entityId = await ctx.entityId();
  const parentGroupId = flags.parent ? await resolveGroup(ctx, entityId, flags.parent) : undefined;
  const { group } = await (
    await ctx.api()
  ).accountGroups.create(entityId, {
    name: flags.name,
    type,
    ...(parentGroupId && { parentGroupId }),
  });
  ctx.wrote(`created account group "${group.name}" (${group.id})`);
  ctx.output.record(fields(group), { group });
}

export async function get(ctx: CommandContext, given: string): Promise<void> {
  const entityId = await ctx.entityId();
  const result = await (
    await ctx.api()
  ).accountGroups.get(entityId, await resolveGroup(ctx, entityId, given));
  ctx.output.record(fields(result.group), result);
}

export async function update(
  ctx: CommandContext,
  given: string,
  flags: { name?: string; parent?: string; top?: boolean },
): Promise<void> {
  const entityId = await ctx.entityId();
  const id = await resolveGroup(ctx, entityId, given);
  const body: UpdateAccountGroupBody = {};
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.parent !== undefined)
    body.parentGroupId = await resolveGroup(ctx, entityId, flags.parent);
  if (flags.top) body.parentGroupId = null;
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: pass --name, --parent or --top');
  const { group } = await (await ctx.api()).accountGroups.update(entityId, id, body);
  ctx.wrote(`updated account group "${group.name}"`);
  ctx.output.record(fields(group), { group });
}

export async function remove(ctx: CommandContext, given: string): Promise<void> {
  const entityId = await ctx.entityId();
  const id = await resolveGroup(ctx, entityId, given);
  await confirmDestructive(ctx, `Delete account group ${given}? Its groups and accounts move up.`);
  await (await ctx.api()).accountGroups.delete(entityId, id);
  ctx.wrote(`deleted account group ${given} (${id})`);
}
