import type {
  BankFeedConnection,
  ConnectedFinancialAccount,
  ConnectionStatus,
  FinancialAccountKind,
} from '../../api/index.js';
import { countOf, isStoredId, type Sql } from './sql.js';

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

interface ConnectionRow {
  id: string;
  entity_id: string;
  bank_name: string;
  status: string;
  error_code: string | null;
  direct: number | boolean;
  created_by_integration: number | boolean;
  created_at: string;
}

const toConnection = (row: ConnectionRow): ConnectionRecord => ({
  id: row.id,
  entityId: row.entity_id,
  bankName: row.bank_name,
  status: row.status as ConnectionStatus,
  errorCode: row.error_code,
  direct: Boolean(row.direct),
  createdByIntegration: Boolean(row.created_by_integration),
  createdAt: row.created_at,
});

/** Bank-feed connections and the financial accounts they cover. */
export class BankFeedStore {
  constructor(private readonly sql: Sql) {}

  /** Whether another connection, direct and syncing, covers one of this connection's accounts. */
  async coveredByHealthyDirectConnection(connectionId: string): Promise<boolean> {
    const row = await this.sql.get(
      `SELECT 1 AS found FROM connection_financial_accounts mine
       JOIN connection_financial_accounts other
         ON other.financial_account_id = mine.financial_account_id
        AND other.connection_id <> mine.connection_id
       JOIN bank_feed_connections c ON c.id = other.connection_id
       WHERE mine.connection_id = ? AND c.status = 'syncing' AND c.direct LIMIT 1`,
      [connectionId],
    );
    return row !== undefined;
  }

  async insertConnectionRecord(connection: ConnectionRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO bank_feed_connections (id, entity_id, bank_name, status, error_code, direct, created_by_integration, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        connection.id,
        connection.entityId,
        connection.bankName,
        connection.status,
        connection.errorCode,
        connection.direct,
        connection.createdByIntegration,
        connection.createdAt,
      ],
    );
  }

  async addFinancialAccount(
    entityId: string,
    account: ConnectedFinancialAccount,
    createdAt: string,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO financial_accounts (id, entity_id, name, kind, chart_account_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [account.id, entityId, account.name, account.kind, account.chartAccountId, createdAt],
    );
  }

  async link(connectionId: string, financialAccountId: string, position: number): Promise<void> {
    await this.sql.run(
      'INSERT INTO connection_financial_accounts (connection_id, financial_account_id, position) VALUES (?, ?, ?)',
      [connectionId, financialAccountId, position],
    );
  }

  async financialAccount(
    entityId: string,
    id: string,
  ): Promise<ConnectedFinancialAccount | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<FinancialAccountRow>(
      'SELECT id, name, kind, chart_account_id FROM financial_accounts WHERE id = ? AND entity_id = ?',
      [id, entityId],
    );
    return row && toFinancialAccount(row);
  }

  /** A connection of the organization's book of business. */
  async findConnection(organizationId: string, id: string): Promise<ConnectionRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<ConnectionRow>(
      `SELECT c.id, c.entity_id, c.bank_name, c.status, c.error_code, c.direct, c.created_by_integration, c.created_at
       FROM bank_feed_connections c JOIN entities e ON e.id = c.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE c.id = ? AND w.organization_id = ?`,
      [id, organizationId],
    );
    return row && toConnection(row);
  }

  async setConnectionStatus(
    id: string,
    status: ConnectionStatus,
    errorCode: string | null,
  ): Promise<void> {
    await this.sql.run('UPDATE bank_feed_connections SET status = ?, error_code = ? WHERE id = ?', [
      status,
      errorCode,
      id,
    ]);
  }

  async recordEvent(event: {
    id: string;
    connectionId: string;
    event: string;
    errorCode: string;
    occurredAt: string;
  }): Promise<void> {
    await this.sql.run(
      'INSERT INTO connection_events (id, connection_id, event, error_code, occurred_at) VALUES (?, ?, ?, ?, ?)',
      [event.id, event.connectionId, event.event, event.errorCode, event.occurredAt],
    );
  }

  async events(connectionId: string) {
    const rows = await this.sql.all<{
      id: string;
      event: string;
      error_code: string;
      occurred_at: string;
    }>(
      'SELECT id, event, error_code, occurred_at FROM connection_events WHERE connection_id = ? ORDER BY seq',
      [connectionId],
    );
    return rows.map((e) => ({
      id: e.id,
      event: e.event,
      errorCode: e.error_code,
      occurredAt: e.occurred_at,
    }));
  }

  /** A financial account of the organization's book of business, with its entity. */
  async financialAccountOf(
    organizationId: string,
    id: string,
  ): Promise<FinancialAccountRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<FinancialAccountRow & { entity_id: string }>(
      `SELECT f.id, f.name, f.kind, f.chart_account_id, f.entity_id FROM financial_accounts f
       JOIN entities e ON e.id = f.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE f.id = ? AND w.organization_id = ?`,
      [id, organizationId],
    );
    return row && { ...toFinancialAccount(row), entityId: row.entity_id };
  }

  /** An entity's connections, oldest first. */
  async listConnections(entityId: string, limit: number, offset: number) {
    const rows = await this.sql.all<ConnectionRow>(
      `SELECT c.id, c.entity_id, c.bank_name, c.status, c.error_code, c.direct, c.created_by_integration, c.created_at
       FROM bank_feed_connections c WHERE c.entity_id = ? ORDER BY c.created_at, c.id LIMIT ? OFFSET ?`,
      [entityId, limit, offset],
    );
    return {
      rows: rows.map(toConnection),
      total: await countOf(
        this.sql,
        'SELECT COUNT(*) AS n FROM bank_feed_connections WHERE entity_id = ?',
        [entityId],
      ),
    };
  }

  async present(connection: ConnectionRecord): Promise<BankFeedConnection> {
    const accounts = await this.sql.all<FinancialAccountRow>(
      `SELECT f.id, f.name, f.kind, f.chart_account_id FROM connection_financial_accounts c
       JOIN financial_accounts f ON f.id = c.financial_account_id
       WHERE c.connection_id = ? ORDER BY c.position`,
      [connection.id],
    );
    return {
      id: connection.id,
      entityId: connection.entityId,
      bankName: connection.bankName,
      status: connection.status,
      financialAccounts: accounts.map(toFinancialAccount),
      createdAt: connection.createdAt,
    };
  }
}
