import type { Store } from '../store/index.js';
import { AccountGroupService } from './accountGroups.js';
import { AccountService } from './accounts.js';
import { AccountingMigrationService } from './accountingMigrations.js';
import { BankFeedService } from './bankFeeds.js';
import { BankTransactionService } from './bankTransactions.js';
import { ClassService } from './classes.js';
import { EntityService } from './entities.js';
import { FaultService } from './faults.js';
import { JournalEntryService } from './journalEntries.js';
import { OpeningBalanceService } from './openingBalances.js';
import { ReconciliationService } from './reconciliations.js';
import { TaxService } from './tax.js';
import { RateLimits } from './rateLimits.js';
import { ReportService } from './reports.js';
import { OrganizationService } from './organizations.js';
import { TransactionRuleService } from './transactionRules.js';
import { WebhookService } from './webhooks.js';
import { WorkspaceService } from './workspaces.js';

/** Options of the local platform engine (the same names as `books serve` flags). */
export interface EngineOptions {
  /** Delay before a rule-generation job runs, in ms (default 2000). */
  ruleGenerationDelayMs: number;
  /** Seconds between webhook delivery attempts. */
  webhookScheduleSeconds: number[];
  /** Requests per second per organization (bucket of twice that); 0 disables. */
  rateLimitPerSecond: number;
  /** Wrong tokens per address per minute before they are answered 429; 0 disables. */
  authFailuresPerMinute: number;
  /** Webhook endpoints may be at private addresses (10/8, 172.16/12, 192.168/16, fc00::/7). */
  allowPrivateWebhooks: boolean;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  ruleGenerationDelayMs: 2000,
  webhookScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
  rateLimitPerSecond: 100,
  authFailuresPerMinute: 100,
  allowPrivateWebhooks: false,
};

/** The local platform's services over one store; no HTTP here. */
export class Engine {
  readonly organizations: OrganizationService;
  readonly workspaces: WorkspaceService;
  readonly entities: EntityService;
  readonly classes: ClassService;
  readonly transactionRules: TransactionRuleService;
  readonly accounts: AccountService;
  readonly accountGroups: AccountGroupService;
  readonly journalEntries: JournalEntryService;
  readonly openingBalances: OpeningBalanceService;
  readonly reconciliations: ReconciliationService;
  readonly tax: TaxService;
  readonly bankFeeds: BankFeedService;
  readonly bankTransactions: BankTransactionService;
  readonly reports: ReportService;
  readonly accountingMigrations: AccountingMigrationService;
  readonly webhooks: WebhookService;
  readonly faults = new FaultService();
  readonly rateLimits: RateLimits;

  constructor(
    readonly store: Store,
    readonly options: EngineOptions = DEFAULT_ENGINE_OPTIONS,
  ) {
    this.organizations = new OrganizationService(store);
    this.rateLimits = new RateLimits(
      store,
      options.rateLimitPerSecond,
      options.authFailuresPerMinute,
    );
    this.workspaces = new WorkspaceService(store);
    this.entities = new EntityService(store, this.workspaces);
    this.transactionRules = new TransactionRuleService(store, this.workspaces);
    this.classes = new ClassService(store, this.workspaces, this.transactionRules);
    this.accounts = new AccountService(store, this.entities, this.transactionRules);
    this.accountGroups = new AccountGroupService(store, this.entities);
    this.journalEntries = new JournalEntryService(store, this.entities);
    this.openingBalances = new OpeningBalanceService(store, this.entities);
    this.reconciliations = new ReconciliationService(store, this.entities);
    this.tax = new TaxService(store, this.entities);
    this.webhooks = new WebhookService(
      store,
      options.webhookScheduleSeconds,
      Date.now,
      options.allowPrivateWebhooks,
    );
    this.bankFeeds = new BankFeedService(store, this.entities, this.accounts);
    this.bankTransactions = new BankTransactionService(
      store,
      this.entities,
      this.accounts,
      this.workspaces,
    );
    this.bankFeeds.publish = (organizationId, event, payload, occurredAtMs) =>
      this.webhooks.publish(organizationId, event, payload, occurredAtMs);
    this.reports = new ReportService(store, this.entities);
    this.accountingMigrations = new AccountingMigrationService(
      store,
      this.entities,
      this.bankTransactions,
      options.ruleGenerationDelayMs,
    );
    // Transactions arriving while a migration is open wait (entries written then are
    // `migration`: their entity's scope says so).
    this.bankTransactions.categorizationPaused = (entityId) =>
      this.accountingMigrations.isOpen(entityId);
    // A journal entry a bank line is matched to is deleted: the line waits again.
    this.journalEntries.entryDeleted = (entitySeq, entryId) =>
      this.bankTransactions.entryDeleted(entitySeq, entryId);
  }
}
