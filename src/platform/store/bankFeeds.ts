import type { Cents } from '../../core/money.js';
import type {
  BankFeedConnection,
  ConnectedFinancialAccount,
  ConnectionStatus,
  FinancialAccountKind,
} from '../../api/index.js';
import type { SqliteDatabase } from './database.js';

export interface ConnectionRecord {
  id: string;
  entityId: string;
  bankName: string;
  status: ConnectionStatus;
  errorCode: string | null;
  direct: boolean;
  createdByIntegration: boolean;
  createdAt: string;
}

interface FinancialAccountRow {
  id: string;
  name: string;
  kind: string;
  chart_account_id: string;
}

const toFinancialAccount = (row: FinancialAccountRow): ConnectedFinancialAccount => ({
  id: row.id,
  name: row.name,
  kind: row.kind as FinancialAccountKind,
  chartAccountId: row.chart_account_id,
});

export interface FinancialAccountRecord extends ConnectedFinancialAccount {
  entityId: string;
}

export interface BankTransactionRecord {
  seq: number;
  id: string;
  entityId: string;
  financialAccountId: string;
  date: string;
  amountCents: Cents;
  description: string;
  externalId: string | null;
  accountId: string | null;
  ruleId: string | null;
  createdAt: string;
}

interface TransactionRow {
  seq: number;
  id: string;
  entity_id: string;
  financial_account_id: string;
  date: string;
  amount_cents: Cents;
  description: string;
  external_id: string | null;
  account_id: string | null;
  rule_id: string | null;
  created_at: string;
}

const toTransaction = (row: TransactionRow): BankTransactionRecord => ({
  seq: row.seq,
  id: row.id,
  entityId: row.entity_id,
  financialAccountId: row.financial_account_id,
  date: row.date,
  amountCents: row.amount_cents,
  description: row.description,
  externalId: row.external_id,
  accountId: row.account_id,
  ruleId: row.rule_id,
  createdAt: row.created_at,
});

interface ConnectionRow {
  id: string;
  entity_id: string;
  bank_name: string;
  status: string;
  error_code: string | null;
  direct: number;
  created_by_integration: number;
  created_at: string;
}

const toConnection = (row: ConnectionRow): ConnectionRecord => ({
  id: row.id,
  entityId: row.entity_id,
  bankName: row.bank_name,
  status: row.status as ConnectionStatus,
  errorCode: row.error_code,
  direct: row.direct === 1,
  createdByIntegration: row.created_by_integration === 1,
  createdAt: row.created_at,
});

const TRANSACTION_COLUMNS =
  't.seq, t.id, t.entity_id, t.financial_account_id, t.date, t.amount_cents, t.description, t.external_id, t.account_id, t.rule_id, t.created_at';

/** Bank-feed connections and the financial accounts they cover. */
export class BankFeedStore {
  private readonly findConnectionStatement;
  private readonly updateConnectionStatement;
  private readonly insertEventStatement;
  private readonly eventsStatement;
  private readonly findFinancialAccountInOrganization;
  private readonly externalIdStatement;
  private readonly insertTransactionStatement;
  private readonly listTransactionsStatement;
  private readonly countTransactionsStatement;
  private readonly setCategoryStatement;
  private readonly moveCategoryStatement;
  private readonly uncategorizedStatement;
  private readonly insertConnection;
  private readonly insertFinancialAccount;
  private readonly linkStatement;
  private readonly findFinancialAccount;
  private readonly accountsOfConnection;
  private readonly healthyDirectCoverStatement;

  constructor(db: SqliteDatabase) {
    this.findConnectionStatement = db.prepare<[string, string], ConnectionRow>(
      `SELECT c.id, c.entity_id, c.bank_name, c.status, c.error_code, c.direct, c.created_by_integration, c.created_at
       FROM bank_feed_connections c JOIN entities e ON e.id = c.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE c.id = ? AND w.organization_id = ?`,
    );
    this.updateConnectionStatement = db.prepare(
      'UPDATE bank_feed_connections SET status = ?, error_code = ? WHERE id = ?',
    );
    this.insertEventStatement = db.prepare(
      'INSERT INTO connection_events (id, connection_id, event, error_code, occurred_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.eventsStatement = db.prepare<
      [string],
      { id: string; event: string; error_code: string; occurred_at: string }
    >(
      'SELECT id, event, error_code, occurred_at FROM connection_events WHERE connection_id = ? ORDER BY seq',
    );
    this.findFinancialAccountInOrganization = db.prepare<
      [string, string],
      FinancialAccountRow & { entity_id: string }
    >(
      `SELECT f.id, f.name, f.kind, f.chart_account_id, f.entity_id FROM financial_accounts f
       JOIN entities e ON e.id = f.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE f.id = ? AND w.organization_id = ?`,
    );
    this.externalIdStatement = db
      .prepare('SELECT 1 FROM bank_transactions WHERE financial_account_id = ? AND external_id = ?')
      .pluck();
    this.insertTransactionStatement = db.prepare(
      `INSERT INTO bank_transactions (id, entity_id, financial_account_id, date, amount_cents, description, external_id, account_id, rule_id, created_at)
       VALUES (@id, @entityId, @financialAccountId, @date, @amountCents, @description, @externalId, @accountId, @ruleId, @createdAt)`,
    );
    this.listTransactionsStatement = db.prepare<[string, number, number], TransactionRow>(
      `SELECT ${TRANSACTION_COLUMNS} FROM bank_transactions t JOIN entities e ON e.id = t.entity_id
       WHERE e.workspace_id = ? ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
    );
    this.countTransactionsStatement = db
      .prepare(
        'SELECT COUNT(*) FROM bank_transactions t JOIN entities e ON e.id = t.entity_id WHERE e.workspace_id = ?',
      )
      .pluck();
    this.setCategoryStatement = db.prepare(
      'UPDATE bank_transactions SET account_id = ?, rule_id = ? WHERE seq = ?',
    );
    this.moveCategoryStatement = db.prepare(
      'UPDATE bank_transactions SET account_id = ? WHERE entity_id = ? AND account_id = ?',
    );
    this.uncategorizedStatement = db.prepare<[string], TransactionRow>(
      `SELECT ${TRANSACTION_COLUMNS} FROM bank_transactions t WHERE t.entity_id = ? AND t.rule_id IS NULL ORDER BY t.seq`,
    );
    this.insertConnection = db.prepare(
      `INSERT INTO bank_feed_connections (id, entity_id, bank_name, status, error_code, direct, created_by_integration, created_at)
       VALUES (@id, @entityId, @bankName, @status, @errorCode, @direct, @createdByIntegration, @createdAt)`,
    );
    this.insertFinancialAccount = db.prepare(
      `INSERT INTO financial_accounts (id, entity_id, name, kind, chart_account_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.linkStatement = db.prepare(
      'INSERT INTO connection_financial_accounts (connection_id, financial_account_id, position) VALUES (?, ?, ?)',
    );
    this.findFinancialAccount = db.prepare<[string, string], FinancialAccountRow>(
      'SELECT id, name, kind, chart_account_id FROM financial_accounts WHERE id = ? AND entity_id = ?',
    );
    this.accountsOfConnection = db.prepare<[string], FinancialAccountRow>(
      `SELECT f.id, f.name, f.kind, f.chart_account_id FROM connection_financial_accounts c
       JOIN financial_accounts f ON f.id = c.financial_account_id
       WHERE c.connection_id = ? ORDER BY c.position`,
    );
    this.healthyDirectCoverStatement = db
      .prepare<[string], number>(
        `SELECT 1 FROM connection_financial_accounts mine
         JOIN connection_financial_accounts other
           ON other.financial_account_id = mine.financial_account_id
          AND other.connection_id <> mine.connection_id
         JOIN bank_feed_connections c ON c.id = other.connection_id
         WHERE mine.connection_id = ? AND c.status = 'syncing' AND c.direct = 1 LIMIT 1`,
      )
      .pluck();
  }

  /** Whether another connection, direct and syncing, covers one of this connection's accounts. */
  coveredByHealthyDirectConnection(connectionId: string): boolean {
    return this.healthyDirectCoverStatement.get(connectionId) !== undefined;
  }

  insertConnectionRecord(connection: ConnectionRecord): void {
    this.insertConnection.run({
      ...connection,
      direct: connection.direct ? 1 : 0,
      createdByIntegration: connection.createdByIntegration ? 1 : 0,
    });
  }

  addFinancialAccount(
    entityId: string,
    account: ConnectedFinancialAccount,
    createdAt: string,
  ): void {
    this.insertFinancialAccount.run(
      account.id,
      entityId,
      account.name,
      account.kind,
      account.chartAccountId,
      createdAt,
    );
  }

  link(connectionId: string, financialAccountId: string, position: number): void {
    this.linkStatement.run(connectionId, financialAccountId, position);
  }

  financialAccount(entityId: string, id: string): ConnectedFinancialAccount | undefined {
    const row = this.findFinancialAccount.get(id, entityId);
    return row && toFinancialAccount(row);
  }

  /** A connection of the organization's book of business. */
  findConnection(organizationId: string, id: string): ConnectionRecord | undefined {
    const row = this.findConnectionStatement.get(id, organizationId);
    return row && toConnection(row);
  }

  setConnectionStatus(id: string, status: ConnectionStatus, errorCode: string | null): void {
    this.updateConnectionStatement.run(status, errorCode, id);
  }

  recordEvent(event: {
    id: string;
    connectionId: string;
    event: string;
    errorCode: string;
    occurredAt: string;
  }): void {
    this.insertEventStatement.run(
      event.id,
      event.connectionId,
      event.event,
      event.errorCode,
      event.occurredAt,
    );
  }

  events(connectionId: string) {
    return this.eventsStatement.all(connectionId).map((e) => ({
      id: e.id,
      event: e.event,
      errorCode: e.error_code,
      occurredAt: e.occurred_at,
    }));
  }

  /** A financial account of the organization's book of business, with its entity. */
  financialAccountOf(organizationId: string, id: string): FinancialAccountRecord | undefined {
    const row = this.findFinancialAccountInOrganization.get(id, organizationId);
    return row && { ...toFinancialAccount(row), entityId: row.entity_id };
  }

  hasExternalId(financialAccountId: string, externalId: string): boolean {
    return this.externalIdStatement.get(financialAccountId, externalId) !== undefined;
  }

  /** Inserts a transaction and answers its seq. */
  insertTransaction(record: Omit<BankTransactionRecord, 'seq'>): number {
    return Number(this.insertTransactionStatement.run(record).lastInsertRowid);
  }

  listTransactions(workspaceId: string, limit: number, offset: number) {
    return {
      rows: this.listTransactionsStatement.all(workspaceId, limit, offset).map(toTransaction),
      total: Number(this.countTransactionsStatement.get(workspaceId)),
    };
  }

  setCategory(seq: number, accountId: string | null, ruleId: string | null): void {
    this.setCategoryStatement.run(accountId, ruleId, seq);
  }

  /** A merge moves categories from one account to another. */
  moveCategory(entityId: string, fromAccountId: string, toAccountId: string): void {
    this.moveCategoryStatement.run(toAccountId, entityId, fromAccountId);
  }

  /** Transactions of the entity no rule categorized, oldest first. */
  uncategorized(entityId: string): BankTransactionRecord[] {
    return this.uncategorizedStatement.all(entityId).map(toTransaction);
  }

  present(connection: ConnectionRecord): BankFeedConnection {
    return {
      id: connection.id,
      entityId: connection.entityId,
      bankName: connection.bankName,
      status: connection.status,
      financialAccounts: this.accountsOfConnection.all(connection.id).map(toFinancialAccount),
    };
  }
}
