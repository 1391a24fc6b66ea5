import type { AccountingMigration, ListQuery, TransactionRule } from '../../api/index.js';
import { outsideTransactions } from '../store/sql.js';
import { conflict, invalid, notFound, unprocessable } from '../domain/errors.js';
import { learningText, learningWindow, RuleLearner } from '../domain/ruleGeneration.js';
import { migrationIsOpen, type MigrationRecord } from '../store/accountingMigrations.js';
import type { Store } from '../store/index.js';
import type { BankTransactionService } from './bankTransactions.js';
import type { EntityService } from './entities.js';
import { newId } from './ids.js';
import { listOf, pageOf } from './pagination.js';

const present = ({
  id,
  enrichmentRulesSeededAt,
  createdAt,
}: MigrationRecord): AccountingMigration => ({
  id,
  enrichmentRulesSeededAt,
  createdAt,
});

/**
 * The accounting migration of an entity: created before history is pushed, finalized by rule
 * generation, a background job that reads the migrated lines, seeds rules from them and reruns
 * categorization on uncategorized transactions. While it is open, entries are `migration` and
 * arriving transactions stay uncategorized.
 */
export class AccountingMigrationService {
  private readonly timers = new Map<NodeJS.Timeout, string>();
  /** Jobs running now (a stop waits for them). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly bankTransactions: BankTransactionService,
    private readonly ruleGenerationDelayMs: number,
  ) {}

  async create(organizationId: string, entityId: string): Promise<AccountingMigration> {
    const { entity } = await this.entities.scope(organizationId, entityId);
    if (!entity.bookkeepingStartDate) {
      throw invalid('the entity has no bookkeepingStartDate: set it before migrating its history');
    }
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      if (await this.store.accountingMigrations.forEntity(entityId)) {
        throw conflict('the entity already has an accounting migration');
      }
      if (await this.store.openingBalances.exists(entityId)) {
        throw conflict('the entity has opening balances: a migration brings the history instead');
      }
      const record: MigrationRecord = {
        id: newId(),
        entityId,
        state: 'open',
        enrichmentRulesSeededAt: null,
        createdAt: new Date().toISOString(),
      };
      await this.store.accountingMigrations.insert(record);
      return present(record);
    });
  }

  async get(organizationId: string, entityId: string): Promise<AccountingMigration> {
    await this.entities.get(organizationId, entityId);
    return present(await this.find(entityId));
  }

  /** Starts rule generation (202): 404 without a migration, 409 once started, 422 when ineligible. */
  async generate(organizationId: string, entityId: string): Promise<AccountingMigration> {
    const generating = await this.store.transaction(async () => {
      const { workspace } = await this.entities.scope(organizationId, entityId);
      // Entries written while the migration is open are `migration`: they are in first.
      await this.entities.lockExclusively(entityId);
      const migration = await this.find(entityId);
      if (migration.state === 'generating')
        throw conflict('transaction rules are being generated already');
      if (migration.state === 'finalized')
        throw conflict('transaction rules were generated already');
      if (!workspace.ruleGenerationEligible) {
        throw unprocessable('the workspace is not eligible for transaction rule generation');
      }
      const generating = { ...migration, state: 'generating' as const };
      await this.store.accountingMigrations.update(generating);
      return generating;
    });
    this.schedule(generating);
    return present(generating);
  }

  /** Whether entries written now belong to the migration (and categorization waits). */
  async isOpen(entityId: string): Promise<boolean> {
    return migrationIsOpen((await this.store.accountingMigrations.forEntity(entityId))?.state);
  }

  /** The rules the migration generated (the sandbox lists them; the platform API does not). */
  async generatedRules(organizationId: string, entityId: string, query: ListQuery) {
    const { entity } = await this.entities.scope(organizationId, entityId);
    const rules: TransactionRule[] = [];
    for (const rule of await this.store.transactionRules.forCategorization(
      entity.workspaceId,
      entityId,
    )) {
      if (
        (await this.store.transactionRules.find(entity.workspaceId, rule.id, 'migration')) !==
        undefined
      ) {
        rules.push(rule);
      }
    }
    const page = pageOf(query);
    return listOf<TransactionRule>(page, {
      rows: rules.slice(page.offset, page.offset + page.limit),
      total: rules.length,
    });
  }

  /**
   * At start-up: generation interrupted by a stop runs again (it is idempotent; of several
   * processes that run it, one writes its rules).
   */
  async resume(): Promise<void> {
    for (const migration of await this.store.accountingMigrations.generating()) {
      this.schedule(migration);
    }
  }

  /**
   * Stops the job timers. By default jobs still waiting run now: a short-lived process (the
   * embedded CLI) must not leave a migration generating. `flush: false` drops them, as a crash
   * would; start-up picks them up again.
   */
  async stop(options: { flush?: boolean } = {}): Promise<void> {
    const pending = [...this.timers.entries()];
    for (const [timer] of pending) clearTimeout(timer);
    this.timers.clear();
    const running = [...this.running];
    if (options.flush !== false) {
      for (const [, entityId] of pending) running.push(this.runGeneration(entityId));
    }
    await Promise.allSettled(running);
  }

  private schedule(migration: MigrationRecord): void {
    outsideTransactions(() => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const run = this.runGeneration(migration.entityId)
          .catch(() => {
            // The database went away: the next start (or another process) runs it again.
          })
          .finally(() => this.running.delete(run));
        this.running.add(run);
      }, this.ruleGenerationDelayMs);
      timer.unref?.();
      this.timers.set(timer, migration.entityId);
    });
  }

  /** The job: learn rules from the year before bookkeeping started, then finalize. */
  async runGeneration(entityId: string): Promise<void> {
    const organizationId = await this.store.entities.organizationOf(entityId);
    const migration = await this.store.accountingMigrations.forEntity(entityId);
    if (organizationId === undefined || migration?.state !== 'generating') return;
    const scope = await this.entities.scope(organizationId, entityId);
    const window = learningWindow(scope.entity.bookkeepingStartDate ?? '9999-12-31');
    const learner = new RuleLearner();
    for await (const row of this.store.accountingMigrations.learningLines(
      scope.entitySeq,
      window.from,
      window.before,
    )) {
      const description = learningText(row.description, row.memo);
      if (description !== '') learner.add({ description, accountId: row.accountId });
    }
    const rules = learner.rules();
    const finalized = await this.store.transaction(async () => {
      await this.store.lock(`migration ${entityId}`, 'exclusive');
      const current = await this.store.accountingMigrations.forEntity(entityId);
      // Another process ran the job first.
      if (current?.state !== 'generating') return false;
      await this.store.accountingMigrations.deleteGeneratedRules(entityId);
      const now = new Date().toISOString();
      for (const rule of rules) {
        await this.store.transactionRules.insert(
          scope.entity.workspaceId,
          {
            id: newId(),
            conditions: [{ conditionType: 'description_contains', value: [rule.contains] }],
            actions: [{ actionType: 'account_id', value: rule.accountId }],
            note: `generated from ${rule.support} migrated lines`,
            isDisabled: false,
            updatedAt: now,
          },
          { ruleGroup: 'migration', entityId },
        );
      }
      await this.store.accountingMigrations.update({
        ...migration,
        state: 'finalized',
        enrichmentRulesSeededAt: now,
      });
      return true;
    });
    // Categorization resumes: transactions that arrived uncategorized meet the rules now.
    if (finalized) await this.bankTransactions.recategorize(organizationId, entityId);
  }

  private async find(entityId: string): Promise<MigrationRecord> {
    const migration = await this.store.accountingMigrations.forEntity(entityId);
    if (!migration) throw notFound('accounting migration');
    return migration;
  }
}
