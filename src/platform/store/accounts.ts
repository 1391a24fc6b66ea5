import type { SqliteDatabase } from './database.js';

/** Chart accounts and financial accounts, as far as other aggregates refer to them. */
export class AccountStore {
  private readonly workspaceAccount;
  private readonly workspaceFinancialAccount;

  constructor(db: SqliteDatabase) {
    this.workspaceAccount = db
      .prepare(
        `SELECT 1 FROM accounts a JOIN entities e ON e.id = a.entity_id
         WHERE a.id = ? AND e.workspace_id = ?`,
      )
      .pluck();
    this.workspaceFinancialAccount = db
      .prepare(
        `SELECT 1 FROM financial_accounts f JOIN entities e ON e.id = f.entity_id
         WHERE f.id = ? AND e.workspace_id = ?`,
      )
      .pluck();
  }

  isWorkspaceAccount(workspaceId: string, accountId: string): boolean {
    return this.workspaceAccount.get(accountId, workspaceId) !== undefined;
  }

  isWorkspaceFinancialAccount(workspaceId: string, financialAccountId: string): boolean {
    return this.workspaceFinancialAccount.get(financialAccountId, workspaceId) !== undefined;
  }
}
