import { unlessNotFound } from '../../../client/index.js';
import { finalizeMigration, type ImportRequest } from '../../../migrate/index.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError } from '../../exitCodes.js';
import { importWith, migrationEvents } from '../../importing.js';

/**
 * `migrate run FILE.csv`: the whole Procedure in one command, safe to rerun: preconditions,
 * the file checked whole, missing accounts (with --create-missing-accounts), the migration
 * created or continued, history sent in keyed batches with a checkpoint, reconciliation, then
 * finalization and a wait for enrichmentRulesSeededAt.
 */
export async function run(
  ctx: CommandContext,
  request: ImportRequest & { migration: { finalize: boolean; wait: boolean } },
): Promise<number> {
  await importWith(ctx, request);
  return ExitCode.Success;
}

export async function status(ctx: CommandContext): Promise<void> {
  const api = await ctx.api();
  const entityId = await ctx.entityId();
  const result = await unlessNotFound(api.accountingMigration.get(entityId));
  if (!result)
    throw new UserError(`entity ${entityId} has no accounting migration`, ExitCode.NotFound);
  const m = result.accountingMigration;
  ctx.output.record(
    [
      ['id', m.id],
      ['created', m.createdAt],
      ['state', m.enrichmentRulesSeededAt === null ? 'open (or generating rules)' : 'finalized'],
      ['rules seeded', m.enrichmentRulesSeededAt ?? ''],
    ],
    result,
  );
}

export async function finalizeCommand(
  ctx: CommandContext,
  flags: { wait?: boolean },
): Promise<void> {
  const migration = await finalizeMigration(await ctx.api(), await ctx.entityId(), {
    wait: flags.wait !== false,
    events: migrationEvents(ctx),
  });
  ctx.output.record(
    [
      ['id', migration.id],
      ['rules seeded', migration.enrichmentRulesSeededAt ?? 'not yet'],
    ],
    { accountingMigration: migration },
  );
}
