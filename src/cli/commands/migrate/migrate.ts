import type { AccountingMigration } from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError } from '../../exitCodes.js';
import type { ImportOptions } from '../je/import.js';

const POLL_MS = 1_000;
const WAIT_LIMIT_MS = 3 * 60 * 60 * 1000;

/** An API error's status, for the few places that act on one (404: none yet; 409: done). */
const statusOf = (error: unknown) => (error as { status?: number })?.status;

/**
 * `migrate run FILE.csv`: the whole Procedure in one command, safe to rerun: preconditions,
 * the file checked whole, missing accounts (with --create-missing-accounts), the migration
 * created or continued, history sent in keyed batches with a checkpoint, reconciliation, then
 * finalization and a wait for enrichmentRulesSeededAt.
 */
export async function run(
  ctx: CommandContext,
  options: ImportOptions & { finalize: boolean; wait: boolean },
): Promise<number> {
  const api = await ctx.api();
  if (!options.dryRun) {
    // The sandbox tells the bookkeeping start date; elsewhere creating the migration will.
    const entity = (
      await api.sandbox.entity(await ctx.entityId()).catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      })
    )?.entity;
    if (entity && !entity.bookkeepingStartDate) {
      throw new UserError(
        `entity "${entity.name}" has no bookkeeping start date (the first day kept here; history precedes it): books sandbox entity update --start-date YYYY-MM-DD`,
        ExitCode.Refused,
      );
    }
  }
  const { importLedger } = await import('../je/import.js');
  const result = await importLedger(ctx, options, {
    verb: 'migrated',
    beforeSending: async (entityId) => {
      const existing = await api.accountingMigration.get(entityId).catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
      if (!existing) {
        await api.accountingMigration.create(entityId);
        ctx.wrote(`entity ${entityId}: accounting migration created`);
      } else if (existing.accountingMigration.enrichmentRulesSeededAt === null) {
        ctx.output.note(`books: continuing the accounting migration of entity ${entityId}`);
      }
    },
  });
  if (result.dryRun || !options.finalize) return ExitCode.Success;
  await finalize(ctx, result.entityId, options.wait);
  return ExitCode.Success;
}

/** Starts rule generation (unless it ran) and, with `wait`, polls until the rules are seeded. */
export async function finalize(
  ctx: CommandContext,
  entityId: string,
  wait: boolean,
): Promise<AccountingMigration> {
  const api = await ctx.api();
  let migration: AccountingMigration;
  try {
    migration = (await api.accountingMigration.generateRules(entityId)).accountingMigration;
    ctx.wrote(
      `entity ${entityId}: finalizing the accounting migration (generating transaction rules)`,
    );
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
    migration = (await api.accountingMigration.get(entityId)).accountingMigration;
  }
  if (migration.enrichmentRulesSeededAt === null && wait) {
    const spinner =
      ctx.io.stderr.isTTY && ctx.output.color
        ? (await import('ora'))
            .default({
              text: 'generating transaction rules from the migrated history',
              stream: ctx.io.stderr,
            })
            .start()
        : undefined;
    const started = Date.now();
    try {
      while (migration.enrichmentRulesSeededAt === null) {
        if (Date.now() - started > WAIT_LIMIT_MS) {
          throw new UserError(
            'rule generation is still running; check later with books migrate status',
            ExitCode.Resumable,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        migration = (await api.accountingMigration.get(entityId)).accountingMigration;
      }
    } finally {
      spinner?.stop();
    }
  }
  if (migration.enrichmentRulesSeededAt !== null) {
    const rules = await api.sandbox.generatedRules(entityId).catch(() => []);
    ctx.output.note(
      `books: transaction rules seeded at ${migration.enrichmentRulesSeededAt} (${rules.length} generated)`,
    );
  } else {
    ctx.output.note(
      'books: rule generation is running; books migrate status tells when it is done',
    );
  }
  return migration;
}

export async function status(ctx: CommandContext): Promise<void> {
  const api = await ctx.api();
  const entityId = await ctx.entityId();
  const result = await api.accountingMigration.get(entityId).catch((error: unknown) => {
    if (statusOf(error) === 404)
      throw new UserError(`entity ${entityId} has no accounting migration`, ExitCode.NotFound);
    throw error;
  });
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
  const migration = await finalize(ctx, await ctx.entityId(), flags.wait !== false);
  ctx.output.record(
    [
      ['id', migration.id],
      ['rules seeded', migration.enrichmentRulesSeededAt ?? 'not yet'],
    ],
    { accountingMigration: migration },
  );
}
