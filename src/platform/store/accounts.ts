import type { Account, AccountType } from '../../api/index.js';
import { CLASS_OF_TYPE } from '../domain/accounts.js';
import type { SqliteDatabase } from './database.js';

interface AccountRow {
  id: string;
  name: string;
  code: string;
  type: string;
  group_id: string | null;
  financial_account_id: string | null;
  is_disabled: number;
  created_at: string;
}

const COLUMNS = 'id, name, code, type, group_id, financial_account_id, is_disabled, created_at';

export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  code: row.code,
  type: row.type as AccountType,
  class: CLASS_OF_TYPE[row.type as AccountType],
  groupId: row.group_id,
  financialAccountId: row.financial_account_id,
  isDisabled: row.is_disabled === 1,
  createdAt: row.created_at,
});

/** Chart accounts, and financial accounts as far as other aggregates refer to them. */
export class AccountStore {
  private readonly workspaceAccount;
  private readonly workspaceFinancialAccount;
  private readonly insertStatement;
  private readonly findStatement;
  private readonly allStatement;
  private readonly updateStatement;
  private readonly deleteStatement;
  private readonly hasPostingsStatement;
  private readonly hasPostingsOnOrBeforeStatement;
  private readonly hasOpeningBalanceStatement;
  private readonly movePostingsStatement;
  private readonly ungroupStatement;

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
    this.insertStatement = db.prepare(
      `INSERT INTO accounts (id, entity_id, name, name_key, code, type, group_id, financial_account_id, is_disabled, created_at)
       VALUES (@id, @entityId, @name, @nameKey, @code, @type, @groupId, @financialAccountId, @isDisabled, @createdAt)`,
    );
    this.findStatement = db.prepare<[string, string], AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE id = ? AND entity_id = ?`,
    );
    // Chart order: by code as a number, then by name.
    this.allStatement = db.prepare<[string], AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE entity_id = ? ORDER BY CAST(code AS INTEGER), code, name_key`,
    );
    this.updateStatement = db.prepare(
      'UPDATE accounts SET name = @name, name_key = @nameKey, group_id = @groupId, is_disabled = @isDisabled WHERE id = @id',
    );
    this.deleteStatement = db.prepare('DELETE FROM accounts WHERE id = ?');
    this.hasPostingsStatement = db
      .prepare('SELECT 1 FROM postings WHERE account_id = ? LIMIT 1')
      .pluck();
    this.hasPostingsOnOrBeforeStatement = db
      .prepare('SELECT 1 FROM postings WHERE account_id = ? AND day <= ? LIMIT 1')
      .pluck();
    this.hasOpeningBalanceStatement = db
      .prepare(
        "SELECT 1 FROM postings WHERE account_id = ? AND source_type = 'opening_balance' LIMIT 1",
      )
      .pluck();
    this.movePostingsStatement = db.prepare(
      'UPDATE postings SET account_id = ? WHERE account_id = ?',
    );
    this.ungroupStatement = db.prepare(
      'UPDATE accounts SET group_id = ? WHERE entity_id = ? AND group_id = ?',
    );
  }

  isWorkspaceAccount(workspaceId: string, accountId: string): boolean {
    return this.workspaceAccount.get(accountId, workspaceId) !== undefined;
  }

  isWorkspaceFinancialAccount(workspaceId: string, financialAccountId: string): boolean {
    return this.workspaceFinancialAccount.get(financialAccountId, workspaceId) !== undefined;
  }

  insert(entityId: string, account: Account, nameKey: string): void {
    this.insertStatement.run({
      ...account,
      entityId,
      nameKey,
      isDisabled: account.isDisabled ? 1 : 0,
    });
  }

  find(entityId: string, id: string): Account | undefined {
    const row = this.findStatement.get(id, entityId);
    return row && toAccount(row);
  }

  /** Every account of the entity, archived included, in chart order. */
  all(entityId: string): Account[] {
    return this.allStatement.all(entityId).map(toAccount);
  }

  update(account: Account, nameKey: string): void {
    this.updateStatement.run({ ...account, nameKey, isDisabled: account.isDisabled ? 1 : 0 });
  }

  delete(id: string): void {
    this.deleteStatement.run(id);
  }

  hasPostings(id: string): boolean {
    return this.hasPostingsStatement.get(id) !== undefined;
  }

  hasPostingsOnOrBefore(id: string, day: string): boolean {
    return this.hasPostingsOnOrBeforeStatement.get(id, day) !== undefined;
  }

  hasOpeningBalance(id: string): boolean {
    return this.hasOpeningBalanceStatement.get(id) !== undefined;
  }

  /** Moves every posting of one account to another (a merge). */
  movePostings(fromId: string, toId: string): void {
    this.movePostingsStatement.run(toId, fromId);
  }

  /** Moves a group's member accounts to another group (or to no group). */
  regroupMembers(entityId: string, fromGroupId: string, toGroupId: string | null): void {
    this.ungroupStatement.run(toGroupId, entityId, fromGroupId);
  }
}
