import { AccountGroupStore } from './accountGroups.js';
import { AccountingMigrationStore } from './accountingMigrations.js';
import { AccountStore } from './accounts.js';
import { BankFeedStore } from './bankFeeds.js';
import { BankTransactionStore } from './bankTransactions.js';
import { ClassStore } from './classes.js';
import { EntityStore } from './entities.js';
import type { IdempotencyStore } from './idempotency.js';
import type { JournalEntryStore } from './journalEntries.js';
import { OpeningBalanceStore } from './openingBalances.js';
import { OrganizationStore } from './organizations.js';
import type { PostingStore } from './postings.js';
import { RateLimitStore } from './rateLimits.js';
import { ReconciliationStore } from './reconciliations.js';
import { TaxStore } from './tax.js';
import { ReportStore } from './reports.js';
import type { DialectStores, OpenedDatabase, StoreOptions } from './opened.js';
import type { Dialect, LockMode, SqlDatabase } from './sql.js';
import { TransactionRuleStore } from './transactionRules.js';
import { WebhookStore } from './webhooks.js';
import { WorkspaceStore } from './workspaces.js';

export type { DialectStores, StoreOptions } from './opened.js';

/** Whether a database location names PostgreSQL rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The platform's persistence: one module per aggregate over one database, SQLite or
 * PostgreSQL. The engine sees only these async interfaces; SQL lives in this folder, written
 * once where it reads the same on both backends and in sqlite/ and postgres/ where it does not.
 */
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
  readonly bankTransactions: BankTransactionStore;
  readonly reports: ReportStore;
  readonly accountingMigrations: AccountingMigrationStore;
  readonly transactionRules: TransactionRuleStore;
  readonly idempotency: IdempotencyStore;
  readonly webhooks: WebhookStore;
  readonly rateLimits: RateLimitStore;
  readonly reconciliations: ReconciliationStore;
  readonly tax: TaxStore;

  constructor(
    readonly database: SqlDatabase,
    dialectStores: DialectStores,
  ) {
    const sql = database.sql;
    this.organizations = new OrganizationStore(sql);
    this.workspaces = new WorkspaceStore(sql);
    this.entities = new EntityStore(sql);
    this.classes = new ClassStore(sql);
    this.accounts = new AccountStore(sql);
    this.accountGroups = new AccountGroupStore(sql);
    this.openingBalances = new OpeningBalanceStore(sql);
    this.bankFeeds = new BankFeedStore(sql);
    this.bankTransactions = new BankTransactionStore(sql);
    this.reports = new ReportStore(sql);
    this.accountingMigrations = new AccountingMigrationStore(sql);
    this.transactionRules = new TransactionRuleStore(sql);
    this.webhooks = new WebhookStore(sql);
    this.rateLimits = new RateLimitStore(sql);
    this.reconciliations = new ReconciliationStore(sql);
    this.tax = new TaxStore(sql);
    this.journalEntries = dialectStores.journalEntries;
    this.postings = dialectStores.postings;
    this.idempotency = dialectStores.idempotency;
  }

  /**
   * Opens (and migrates) a database: a SQLite file, `:memory:`, or a `postgres://` URL. Each
   * backend is loaded only when used.
   */
  static async open(location: string, options: StoreOptions = {}): Promise<Store> {
    const opened: OpenedDatabase = isPostgresUrl(location)
      ? await (await import('./postgres/open.js')).openPostgresStore(location, options)
      : await (await import('./sqlite/open.js')).openSqliteStore(location, options);
    return new Store(opened.database, opened.dialectStores);
  }

  get dialect(): Dialect {
    return this.database.sql.dialect;
  }

  /**
   * Runs `work` in one database transaction; calls inside it, nested transactions included,
   * join it (see SqlDatabase.transaction).
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.database.transaction(work);
  }

  /** Takes a named lock for the rest of the caller's transaction (see SqlDatabase.lock). */
  lock(name: string, mode: LockMode): Promise<void> {
    return this.database.lock(name, mode);
  }

  /** A start-up failure said as the database's, when it is (see SqlDatabase.unavailable). */
  unavailable(error: unknown): Error | undefined {
    return this.database.unavailable(error);
  }

  close(): Promise<void> {
    return this.database.close();
  }
}
