import type { AccountingMigration, ListQuery, TransactionRule } from '../../api/index.js';
import { conflict, invalid, notFound, unprocessable } from '../domain/errors.js';
import { generateRules, learningLinesOf, learningWindow } from '../domain/ruleGeneration.js';
import type { MigrationRecord } from '../store/accountingMigrations.js';
import type { Store } from '../store/index.js';
import type { BankFeedService } from './bankFeeds.js';
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

  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly bankFeeds: BankFeedService,
    private readonly ruleGenerationDelayMs: number,
  ) {}

  create(organizationId: string, entityId: string): AccountingMigration {
    const { entity } = this.entities.scope(organizationId, entityId);
    if (!entity.bookkeepingStartDate) {
      throw invalid('the entity has no bookkeepingStartDate: set it before migrating its history');
    }
    return this.store.transaction(() => {
      if (this.store.accountingMigrations.forEntity(entityId)) {
        throw conflict('the entity already has an accounting migration');
      }
      if (this.store.openingBalances.exists(entityId)) {
        throw conflict('the entity has opening balances: a migration brings the history instead');
      }
      const record: MigrationRecord = {
        id: newId(),
        entityId,
        state: 'open',
        enrichmentRulesSeededAt: null,
        createdAt: new Date().toISOString(),
      };
      this.store.accountingMigrations.insert(record);
      return present(record);
    });
  }

  get(organizationId: string, entityId: string): AccountingMigration {
    this.entities.get(organizationId, entityId);
    return present(this.find(entityId));
  }

  /** Starts rule generation (202): 404 without a migration, 409 once started, 422 when ineligible. */
  generate(organizationId: string, entityId: string): AccountingMigration {
    const { workspace } = this.entities.scope(organizationId, entityId);
    const migration = this.find(entityId);
    if (migration.state === 'generating')
      throw conflict('transaction rules are being generated already');
    if (migration.state === 'finalized') throw conflict('transaction rules were generated already');
    if (!workspace.ruleGenerationEligible) {
      throw unprocessable('the workspace is not eligible for transaction rule generation');
    }
    const generating = { ...migration, state: 'generating' as const };
    this.store.accountingMigrations.update(generating);
    this.schedule(generating);
    return present(generating);
  }

  /** Whether entries written now belong to the migration (and categorization waits). */
  isOpen(entityId: string): boolean {
    const state = this.store.accountingMigrations.forEntity(entityId)?.state;
    return state === 'open' || state === 'generating';
  }

  /** The rules the migration generated (the sandbox lists them; the platform API does not). */
  generatedRules(organizationId: string, entityId: string, query: ListQuery) {
    const { entity } = this.entities.scope(organizationId, entityId);
    const rules = this.store.transactionRules
      .forCategorization(entity.workspaceId, entityId)
      .filter(
        (rule) =>
          this.store.transactionRules.find(entity.workspaceId, rule.id, 'migration') !== undefined,
      );
    const page = pageOf(query);
    return listOf<TransactionRule>(page, {
      rows: rules.slice(page.offset, page.offset + page.limit),
      total: rules.length,
    });
  }

  /** At start-up: generation interrupted by a stop runs again (it is idempotent). */
  resume(): void {
    for (const migration of this.store.accountingMigrations.generating()) this.schedule(migration);
  }

  /**
   * Stops the job timers. By default jobs still waiting run now: a short-lived process (the
   * embedded CLI) must not leave a migration generating. `flush: false` drops them, as a crash
   * would; start-up picks them up again.
   */
  stop(options: { flush?: boolean } = {}): void {
    const pending = [...this.timers.entries()];
    for (const [timer] of pending) clearTimeout(timer);
    this.timers.clear();
    if (options.flush === false) return;
    for (const [, entityId] of pending) this.runGeneration(entityId);
  }

  private schedule(migration: MigrationRecord): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.runGeneration(migration.entityId);
    }, this.ruleGenerationDelayMs);
    timer.unref?.();
    this.timers.set(timer, migration.entityId);
  }

  /** The job: learn rules from the year before bookkeeping started, then finalize. */
  runGeneration(entityId: string): void {
    const organizationId = this.store.entities.organizationOf(entityId);
    const migration = this.store.accountingMigrations.forEntity(entityId);
    if (organizationId === undefined || migration?.state !== 'generating') return;
    const scope = this.entities.scope(organizationId, entityId);
    const window = learningWindow(scope.entity.bookkeepingStartDate ?? '9999-12-31');
    const rules = generateRules(
      learningLinesOf(
        this.store.accountingMigrations.learningLines(scope.entitySeq, window.from, window.before),
      ),
    );
    this.store.transaction(() => {
      this.store.accountingMigrations.deleteGeneratedRules(entityId);
      const now = new Date().toISOString();
      for (const rule of rules) {
        this.store.transactionRules.insert(
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
      this.store.accountingMigrations.update({
        ...migration,
        state: 'finalized',
        enrichmentRulesSeededAt: now,
      });
    });
    // Categorization resumes: transactions that arrived uncategorized meet the rules now.
    this.bankFeeds.recategorize(organizationId, entityId);
  }

  private find(entityId: string): MigrationRecord {
    const migration = this.store.accountingMigrations.forEntity(entityId);
    if (!migration) throw notFound('accounting migration');
    return migration;
  }
}
