import type { Account, AccountType } from '../../api/index.js';
import { CLASS_OF_TYPE } from '../domain/accounts.js';
import type { SqliteDatabase } from './database.js';

interface AccountRow {
  seq: number;
  id: string;
  name: string;
  code: string;
  type: string;
  group_id: string | null;
  financial_account_id: string | null;
  is_disabled: number;
  created_at: string;
}

const COLUMNS =
  'seq, id, name, code, type, group_id, financial_account_id, is_disabled, created_at';

/** An account with its integer key, which postings refer to. */
export interface AccountRecord extends Account {
  seq: number;
}

/** The API's view of an account record. */
export function publicAccount({ seq: _seq, ...account }: AccountRecord): Account {
  return account;
}

const toRecord = (row: AccountRow): AccountRecord => ({
  seq: row.seq,
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
    // Daily balances answer per-account questions without reading postings; `basis IN (0, 1)`
    // keeps to their primary key (entity, basis, account, day).
    const accountDays =
      'FROM daily_balances WHERE entity_seq = ? AND basis IN (0, 1) AND account_seq = ?';
    this.hasPostingsStatement = db.prepare(`SELECT 1 ${accountDays} LIMIT 1`).pluck();
    this.hasPostingsOnOrBeforeStatement = db
      .prepare(`SELECT 1 ${accountDays} AND day <= ? LIMIT 1`)
      .pluck();
    this.hasOpeningBalanceStatement = db
      .prepare(`SELECT 1 ${accountDays} AND opening_postings > 0 LIMIT 1`)
      .pluck();
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

  /** Inserts an account and answers its record (with its seq). */
  insert(entityId: string, account: Account, nameKey: string): AccountRecord {
    const { lastInsertRowid } = this.insertStatement.run({
      ...account,
      entityId,
      nameKey,
      isDisabled: account.isDisabled ? 1 : 0,
    });
    return { ...account, seq: Number(lastInsertRowid) };
  }

  find(entityId: string, id: string): AccountRecord | undefined {
    const row = this.findStatement.get(id, entityId);
    return row && toRecord(row);
  }

  /** Every account of the entity, archived included, in chart order. */
  all(entityId: string): AccountRecord[] {
    return this.allStatement.all(entityId).map(toRecord);
  }

  update(account: Account | AccountRecord, nameKey: string): void {
    this.updateStatement.run({ ...account, nameKey, isDisabled: account.isDisabled ? 1 : 0 });
  }

  delete(id: string): void {
    this.deleteStatement.run(id);
  }

  hasPostings(entitySeq: number, accountSeq: number): boolean {
    return this.hasPostingsStatement.get(entitySeq, accountSeq) !== undefined;
  }

  hasPostingsOnOrBefore(entitySeq: number, accountSeq: number, day: string): boolean {
    return this.hasPostingsOnOrBeforeStatement.get(entitySeq, accountSeq, day) !== undefined;
  }

  hasOpeningBalance(entitySeq: number, accountSeq: number): boolean {
    return this.hasOpeningBalanceStatement.get(entitySeq, accountSeq) !== undefined;
  }

  /** Moves a group's member accounts to another group (or to no group). */
  regroupMembers(entityId: string, fromGroupId: string, toGroupId: string | null): void {
    this.ungroupStatement.run(toGroupId, entityId, fromGroupId);
  }
}
