import type { AccountingMigration } from '../api/index.js';
import { unlessNotFound, type BooksApi } from '../client/index.js';
import { migrationKey, type ImportScopeIds } from './import/batches.js';
import { ImportError } from './import/errors.js';

/** What the migration steps say to the person running them. */
export interface MigrationEvents {
  note(text: string): void;
  wrote(text: string): void;
  /** Rule generation is being waited for; the answer stops whatever shows it (a spinner). */
  waiting?(): Promise<() => void>;
  /** How long rule generation has been waited for, at each look. */
  progress?(progress: { phase: 'finalizing'; secondsWaited: number }): void;
}

/** An API error's status (409: rules already generated). */
const statusOf = (error: unknown) => (error as { status?: number })?.status;

const POLL_MS = 1_000;
const WAIT_LIMIT_MS = 3 * 60 * 60 * 1000;

/** The Procedure's second step: create the entity's migration (keyed), or continue the open one. */
export async function openMigration(
  api: BooksApi,
  scope: ImportScopeIds,
  events: MigrationEvents,
): Promise<void> {
  const existing = await unlessNotFound(api.accountingMigration.get(scope.entityId));
  if (!existing) {
    await api.accountingMigration.create(scope.entityId, migrationKey(scope));
    events.wrote('accounting migration created');
  } else if (existing.accountingMigration.enrichmentRulesSeededAt === null) {
    events.note('continuing the accounting migration');
  }
}

/**
 * The Procedure's last step: start rule generation (unless it ran) and, with `wait`, poll
 * `enrichmentRulesSeededAt` until it is set (at most three hours).
 */
export async function finalizeMigration(
  api: BooksApi,
  entityId: string,
  options: {
    wait: boolean;
    events: MigrationEvents;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
  },
): Promise<AccountingMigration> {
  const { events } = options;
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  let migration: AccountingMigration;
  try {
    migration = (await api.accountingMigration.generateRules(entityId)).accountingMigration;
    events.wrote('finalizing the accounting migration (generating transaction rules)');
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
    migration = (await api.accountingMigration.get(entityId)).accountingMigration;
  }
  if (migration.enrichmentRulesSeededAt === null && options.wait) {
    const stop = await events.waiting?.();
    const started = now();
    try {
      while (migration.enrichmentRulesSeededAt === null) {
        if (now() - started > WAIT_LIMIT_MS) {
          throw new ImportError(
            'part-way',
            'rule generation is still running; check later with books migrate status',
          );
        }
        await sleep(POLL_MS);
        migration = (await api.accountingMigration.get(entityId)).accountingMigration;
        events.progress?.({ phase: 'finalizing', secondsWaited: (now() - started) / 1000 });
      }
    } finally {
      stop?.();
    }
  }
  if (migration.enrichmentRulesSeededAt !== null) {
    const rules = await api.sandbox.generatedRules(entityId).catch(() => []);
    events.note(
      `transaction rules seeded at ${migration.enrichmentRulesSeededAt} (${rules.length} generated)`,
    );
  } else {
    events.note('rule generation is running; books migrate status tells when it is done');
  }
  return migration;
}
