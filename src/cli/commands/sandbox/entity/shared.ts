import type { Entity, UpdateEntityBody } from '../../../../api/index.js';
import { dayOption } from '../../../terminal/dates.js';
import { CALENDAR_YEAR, isFiscalYearStart } from '../../../../core/periods.js';
import type { CommandContext } from '../../../context.js';
import { UsageError } from '../../../exitCodes.js';

/** An entity as `field value` lines. */
export const entityFields = (entity: Entity): [string, string][] => [
  ['id', entity.id],
  ['name', entity.name],
  ['workspace', entity.workspaceId],
  ['bookkeeping start', entity.bookkeepingStartDate ?? ''],
  ['lock date', entity.lockDate ?? ''],
  ['accrual ledger', entity.accrualLedgerOpen ? 'open' : 'not open'],
  ['fiscal year start', entity.fiscalYearStart ?? CALENDAR_YEAR],
];

/** `--fiscal-year-start MM-DD`: a day every year has (not 29 February). */
export function fiscalYearStartFlag(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!isFiscalYearStart(text))
    throw new UsageError(
      `--fiscal-year-start must be a day every year has, MM-DD (04-01 for April; 29 February is not), not "${text}"`,
    );
  return text;
}

export function day(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined;
  return dayOption(flag, text);
}

/** `sandbox entity update E [--name N] [--start-date D|none]`, `lock E --date D|none`. */
export async function updateEntity(
  ctx: CommandContext,
  entity: string | undefined,
  body: UpdateEntityBody,
): Promise<void> {
  if (Object.keys(body).length === 0)
    throw new UsageError(
      'nothing to change: pass --name, --start-date, --lock-date or --fiscal-year-start',
    );
  const id = await ctx.entityId(entity);
  const result = await (await ctx.api()).sandbox.updateEntity(id, body);
  ctx.wrote(`updated the entity (${Object.keys(body).join(', ')})`);
  ctx.output.record(entityFields(result.entity), result);
}

export function parseUpdate(
  flags: {
    name?: string | undefined;
    startDate?: string | undefined;
    lockDate?: string | undefined;
    fiscalYearStart?: string | undefined;
  },
  /** The flag the lock date came in (`entity lock` takes it as `--date`). */
  lockFlag = '--lock-date',
): UpdateEntityBody {
  const nullableDay = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : text === 'none' ? null : day(text, flag)!;
  const body: UpdateEntityBody = {};
  if (flags.name !== undefined) body.name = flags.name;
  const start = nullableDay(flags.startDate, '--start-date');
  if (start !== undefined) body.bookkeepingStartDate = start;
  const lock = nullableDay(flags.lockDate, lockFlag);
  if (lock !== undefined) body.lockDate = lock;
  const fiscal = fiscalYearStartFlag(flags.fiscalYearStart);
  if (fiscal !== undefined) body.fiscalYearStart = fiscal;
  return body;
}
