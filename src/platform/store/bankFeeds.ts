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

/** Bank-feed connections and the financial accounts they cover. */
export class BankFeedStore {
  private readonly insertConnection;
  private readonly insertFinancialAccount;
  private readonly linkStatement;
  private readonly findFinancialAccount;
  private readonly accountsOfConnection;

  constructor(db: SqliteDatabase) {
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
