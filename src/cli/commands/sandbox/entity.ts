import type { Entity, UpdateEntityBody } from '../../../api/index.js';
import { isCalendarDay } from '../../../core/calendar.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';

const fields = (entity: Entity): [string, string][] => [
  ['id', entity.id],
  ['name', entity.name],
  ['workspace', entity.workspaceId],
  ['bookkeeping start', entity.bookkeepingStartDate ?? ''],
  ['lock date', entity.lockDate ?? ''],
  ['accrual ledger', entity.accrualLedgerOpen ? 'open' : 'not open'],
];

function day(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined;
  if (!isCalendarDay(text))
    throw new UsageError(`${flag} must be a date (YYYY-MM-DD), not "${text}"`);
  return text;
}

/** `sandbox entity create NAME [--start-date D]` */
export async function create(
  ctx: CommandContext,
  name: string,
  flags: { startDate?: string },
): Promise<void> {
  const bookkeepingStartDate = day(flags.startDate, '--start-date');
  const api = await ctx.api();
  const workspaceId = await ctx.workspaceId();
  const { entity } = await api.sandbox.createEntity(workspaceId, {
    name,
    ...(bookkeepingStartDate && { bookkeepingStartDate }),
  });
  ctx.wrote(`created entity "${entity.name}" (${entity.id})`);
  ctx.output.record(fields(entity), { entity });
}

export async function list(ctx: CommandContext): Promise<void> {
  const entities = await (await ctx.api()).sandbox.entities(await ctx.workspaceId());
  await ctx.output.table(
    [
      { header: 'ID', value: (e) => e.id },
      { header: 'Name', value: (e) => e.name },
      { header: 'Bookkeeping start', value: (e) => e.bookkeepingStartDate ?? '' },
      { header: 'Lock date', value: (e) => e.lockDate ?? '' },
      { header: 'Accrual', value: (e) => (e.accrualLedgerOpen ? 'open' : '') },
    ],
    entities,
  );
}

export async function get(ctx: CommandContext, entity: string | undefined): Promise<void> {
  const result = await (await ctx.api()).sandbox.entity(await ctx.entityId(entity));
  ctx.output.record(fields(result.entity), result);
}

/** `sandbox entity update E [--name N] [--start-date D|none]`, `lock E --date D|none`. */
export async function update(
  ctx: CommandContext,
  entity: string | undefined,
  body: UpdateEntityBody,
): Promise<void> {
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: pass --name, --start-date or --lock-date');
  const id = await ctx.entityId(entity);
  const result = await (await ctx.api()).sandbox.updateEntity(id, body);
  ctx.wrote(`updated the entity (${Object.keys(body).join(', ')})`);
  ctx.output.record(fields(result.entity), result);
}

export function parseUpdate(flags: {
  name?: string;
  startDate?: string;
  lockDate?: string;
}): UpdateEntityBody {
  const nullableDay = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : text === 'none' ? null : day(text, flag)!;
  const body: UpdateEntityBody = {};
  if (flags.name !== undefined) body.name = flags.name;
  const start = nullableDay(flags.startDate, '--start-date');
  if (start !== undefined) body.bookkeepingStartDate = start;
  const lock = nullableDay(flags.lockDate, '--lock-date');
  if (lock !== undefined) body.lockDate = lock;
  return body;
}

export async function openAccrual(ctx: CommandContext, entity: string | undefined): Promise<void> {
  const id = await ctx.entityId(entity);
  const result = await (await ctx.api()).sandbox.openAccrualLedger(id);
  ctx.wrote('opened the accrual ledger');
  ctx.output.record(fields(result.entity), result);
}
