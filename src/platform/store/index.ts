import { AccountStore } from './accounts.js';
import { ClassStore } from './classes.js';
import { openDatabase, type SqliteDatabase } from './database.js';
import { EntityStore } from './entities.js';
import { IdempotencyStore } from './idempotency.js';
import { OrganizationStore } from './organizations.js';
import { TransactionRuleStore } from './transactionRules.js';
import { WorkspaceStore } from './workspaces.js';

/** The platform's persistence: one module per aggregate over one SQLite database. */
export class Store {
  readonly organizations: OrganizationStore;
  readonly workspaces: WorkspaceStore;
  readonly entities: EntityStore;
  readonly classes: ClassStore;
  readonly accounts: AccountStore;
  readonly transactionRules: TransactionRuleStore;
  readonly idempotency: IdempotencyStore;

  private constructor(readonly db: SqliteDatabase) {
    this.organizations = new OrganizationStore(db);
    this.workspaces = new WorkspaceStore(db);
    this.entities = new EntityStore(db);
    this.classes = new ClassStore(db);
    this.accounts = new AccountStore(db);
    this.transactionRules = new TransactionRuleStore(db);
    this.idempotency = new IdempotencyStore(db);
  }

  /** Opens (and migrates) a database file, or an in-memory one for `:memory:`. */
  static open(filename: string): Store {
    return new Store(openDatabase(filename));
  }

  /** Runs `work` in one database transaction (nested calls join the outer one). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
