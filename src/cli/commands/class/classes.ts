import type { Class } from '../../../api/index.js';
import { pick, type CommandContext } from '../../context.js';
import { confirmDestructive } from '../../confirm.js';
import { treeLabels } from '../../render/tree.js';

const fields = (c: Class): [string, string][] => [
  ['id', c.id],
  ['label', c.label],
  ['parent', c.parentClassId ?? ''],
  ['root', c.rootClassId],
];

/** A class of the workspace by id or label (a label shared by several classes needs the id). */
export async function resolveClass(
  ctx: CommandContext,
  workspaceId: string,
  given: string,
): Promise<string> {
  const classes = await (await ctx.api()).classes.all(workspaceId);
  return pick(classes, given, 'class', (c) => ({ id: c.id, name: c.label })).id;
}

export async function list(ctx: CommandContext, flags: { tree?: boolean }): Promise<void> {
  const classes = await (await ctx.api()).classes.all(await ctx.workspaceId());
  const labels = flags.tree
    ? treeLabels(
        classes,
        (c) => c.id,
        (c) => c.parentClassId,
        (c) => c.label,
      )
    : classes.map((c) => c.label);
  const rows = classes.map((c, i) => ({ ...c, shown: labels[i]! }));
  await ctx.output.table(
    [
      { header: 'Label', value: (c) => c.shown },
      { header: 'ID', value: (c) => c.id },
      { header: 'Parent', value: (c) => c.parentClassId ?? '' },
    ],
    rows,
    classes,
  );
}

export async function create(
  ctx: CommandContext,
  label: string,
  flags: { parent?: string },
): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  const parentClassId = flags.parent
    ? await resolveClass(ctx, workspaceId, flags.parent)
    : undefined;
  const result = await (
    await ctx.api()
  ).classes.create(workspaceId, { label, ...(parentClassId && { parentClassId }) });
  ctx.wrote(`created class "${result.class.label}" (${result.class.id})`);
  ctx.output.record(fields(result.class), result);
}

export async function get(ctx: CommandContext, given: string): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  const result = await (
    await ctx.api()
  ).classes.get(workspaceId, await resolveClass(ctx, workspaceId, given));
  ctx.output.record(fields(result.class), result);
}

export async function rename(ctx: CommandContext, given: string, label: string): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  const result = await (
    await ctx.api()
  ).classes.rename(workspaceId, await resolveClass(ctx, workspaceId, given), label);
  ctx.wrote(`renamed class ${result.class.id} to "${label}"`);
  ctx.output.record(fields(result.class), result);
}

export async function remove(ctx: CommandContext, given: string): Promise<void> {
  const workspaceId = await ctx.workspaceId();
  const id = await resolveClass(ctx, workspaceId, given);
  await confirmDestructive(ctx, `Delete class ${given} and every class under it?`);
  await (await ctx.api()).classes.delete(workspaceId, id);
  ctx.wrote(`deleted class ${given} (${id}) and its subtree`);
}
