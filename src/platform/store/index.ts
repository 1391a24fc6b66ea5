import { AccountGroupStore } from './accountGroups.js';
import { AccountingMigrationStore } from './accountingMigrations.js';
import { AccountStore } from './accounts.js';
import { BankFeedStore } from './bankFeeds.js';
import { ClassStore } from './classes.js';
import { openDatabase, type DatabaseTuning, type SqliteDatabase } from './database.js';
import { EntityStore } from './entities.js';
import { IdempotencyStore } from './idempotency.js';
import { JournalEntryStore } from './journalEntries.js';
import { OpeningBalanceStore } from './openingBalances.js';
import { OrganizationStore } from './organizations.js';
import { PostingStore } from './postings.js';
import { ReportStore } from './reports.js';
import { TransactionRuleStore } from './transactionRules.js';
import { WebhookStore } from './webhooks.js';
import { WorkspaceStore } from './workspaces.js';

/** The platform's persistence: one module per aggregate over one SQLite database. */
export class Store {
  readonly organizations: OrganizationStore;
  readonly workspaces: WorkspaceStore;
  readonly entities: EntityStore;
  readonly classes: ClassStore;
  readonly accounts: AccountStore;
  readonly accountGroups: AccountGroupStore;
  readonly journalEntries: JournalEntryStore;
  readonly postings: PostingStore;
  readonly openingBalances: OpeningBalanceStore;
  readonly bankFeeds: BankFeedStore;
  readonly reports: ReportStore;
  readonly accountingMigrations: AccountingMigrationStore;
  readonly transactionRules: TransactionRuleStore;
  readonly idempotency: IdempotencyStore;
  readonly webhooks: WebhookStore;

  private constructor(readonly db: SqliteDatabase) {
    this.organizations = new OrganizationStore(db);
    this.workspaces = new WorkspaceStore(db);
    this.entities = new EntityStore(db);
    this.classes = new ClassStore(db);
    this.accounts = new AccountStore(db);
    this.accountGroups = new AccountGroupStore(db);
    this.journalEntries = new JournalEntryStore(db);
    this.postings = new PostingStore(db);
    this.openingBalances = new OpeningBalanceStore(db);
    this.bankFeeds = new BankFeedStore(db);
    this.reports = new ReportStore(db);
    this.accountingMigrations = new AccountingMigrationStore(db);
    this.transactionRules = new TransactionRuleStore(db);
    this.idempotency = new IdempotencyStore(db);
    this.webhooks = new WebhookStore(db);
  }

  /** Opens (and migrates) a database file, or an in-memory one for `:memory:`. */
  static open(filename: string, tuning?: DatabaseTuning): Store {
    return new Store(openDatabase(filename, tuning));
  }

  /** Runs `work` in one database transaction (nested calls join the outer one). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
