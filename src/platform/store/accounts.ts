import type { Account, AccountType } from '../../api/index.js';
import { CLASS_OF_TYPE } from '../domain/accounts.js';
import { isStoredId, placeholders, type Sql } from './sql.js';

interface AccountRow {
  seq: number;
  id: string;
  name: string;
  name_key: string;
  code: string;
  type: string;
  group_id: string | null;
  financial_account_id: string | null;
  is_disabled: number | boolean;
  created_at: string;
}

const COLUMNS =
  'seq, id, name, name_key, code, type, group_id, financial_account_id, is_disabled, created_at';

/** An account with its integer key, which postings refer to. */
export interface AccountRecord extends Account {
  seq: number;
}

/** The API's view of an account record. */
export function publicAccount({ seq: _seq, ...account }: AccountRecord): Account {
  return account;
}

const toRecord = (row: AccountRow): AccountRecord => ({
  seq: Number(row.seq),
  id: row.id,
  name: row.name,
  code: row.code,
  type: row.type as AccountType,
  class: CLASS_OF_TYPE[row.type as AccountType],
  groupId: row.group_id,
  financialAccountId: row.financial_account_id,
  isDisabled: Boolean(row.is_disabled),
  createdAt: row.created_at,
});

/**
 * Chart order: by code as a number (codes are whole numbers written in digits), then by code as
 * written and by name. Sorted here rather than in SQL, whose casts of text to numbers differ
 * between SQLite and PostgreSQL.
 */
function chartOrder(a: AccountRow, b: AccountRow): number {
  const left = a.code.replace(/^0+(?=\d)/, '');
  const right = b.code.replace(/^0+(?=\d)/, '');
  if (left.length !== right.length) return left.length - right.length;
  if (left !== right) return left < right ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0;
}

// Daily balances answer per-account questions without reading postings; `basis IN (0, 1)` keeps
// to their primary key (entity, basis, account, day).
const ACCOUNT_DAYS =
  'FROM daily_balances WHERE entity_seq = ? AND basis IN (0, 1) AND account_seq = ?';

/** Chart accounts, and financial accounts as far as other aggregates refer to them. */
export class AccountStore {
  constructor(private readonly sql: Sql) {}

  async isWorkspaceAccount(workspaceId: string, accountId: string): Promise<boolean> {
    if (!isStoredId(accountId)) return false;
    return this.exists(
      `SELECT 1 AS found FROM accounts a JOIN entities e ON e.id = a.entity_id
       WHERE a.id = ? AND e.workspace_id = ?`,
      [accountId, workspaceId],
    );
  }

  async isWorkspaceFinancialAccount(
    workspaceId: string,
    financialAccountId: string,
  ): Promise<boolean> {
    if (!isStoredId(financialAccountId)) return false;
    return this.exists(
      `SELECT 1 AS found FROM financial_accounts f JOIN entities e ON e.id = f.entity_id
       WHERE f.id = ? AND e.workspace_id = ?`,
      [financialAccountId, workspaceId],
    );
  }

  /** Inserts an account and answers its record (with its seq). */
  async insert(entityId: string, account: Account, nameKey: string): Promise<AccountRecord> {
    const row = await this.sql.get<{ seq: number }>(
      `INSERT INTO accounts (id, entity_id, name, name_key, code, type, group_id, financial_account_id, is_disabled, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
      [
        account.id,
        entityId,
        account.name,
        nameKey,
        account.code,
        account.type,
        account.groupId,
        account.financialAccountId,
        account.isDisabled,
        account.createdAt,
      ],
    );
    return { ...account, seq: Number(row!.seq) };
  }

  async find(entityId: string, id: string): Promise<AccountRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE id = ? AND entity_id = ?`,
      [id, entityId],
    );
    return row && toRecord(row);
  }

  /**
   * The accounts of the entity among some ids (the others are absent), in no order. Read by id
   * alone, the entity checked here: PostgreSQL's generic plan for both in SQL scanned every
   * account of the entity (0.2 ms a call on a chart of 1,000).
   */
  async byIds(entityId: string, ids: readonly string[]): Promise<AccountRecord[]> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (wanted.length === 0) return [];
    const rows = await this.sql.all<AccountRow & { entity_id: string }>(
      `SELECT ${COLUMNS}, entity_id FROM accounts WHERE id IN (${placeholders(wanted.length)})`,
      wanted,
    );
    return rows.filter((row) => row.entity_id === entityId).map(toRecord);
  }

  /** Every account of the entity, archived included, in chart order. */
  async all(entityId: string): Promise<AccountRecord[]> {
    const rows = await this.sql.all<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE entity_id = ?`,
      [entityId],
    );
    return rows.sort(chartOrder).map(toRecord);
  }

  async update(account: Account | AccountRecord, nameKey: string): Promise<void> {
    await this.sql.run(
      'UPDATE accounts SET name = ?, name_key = ?, group_id = ?, is_disabled = ? WHERE id = ?',
      [account.name, nameKey, account.groupId, account.isDisabled, account.id],
    );
  }

  /** Links an account of the chart to a bank feed's financial account. */
  async linkFinancial(id: string, financialAccountId: string): Promise<void> {
    await this.sql.run('UPDATE accounts SET financial_account_id = ? WHERE id = ?', [
      financialAccountId,
      id,
    ]);
  }

  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM accounts WHERE id = ?', [id]);
  }

  hasPostings(entitySeq: number, accountSeq: number): Promise<boolean> {
    return this.exists(`SELECT 1 AS found ${ACCOUNT_DAYS} LIMIT 1`, [entitySeq, accountSeq]);
  }

  hasPostingsOnOrBefore(entitySeq: number, accountSeq: number, day: string): Promise<boolean> {
    return this.exists(`SELECT 1 AS found ${ACCOUNT_DAYS} AND day <= ? LIMIT 1`, [
      entitySeq,
      accountSeq,
      day,
    ]);
  }

  hasOpeningBalance(entitySeq: number, accountSeq: number): Promise<boolean> {
    return this.exists(`SELECT 1 AS found ${ACCOUNT_DAYS} AND opening_postings > 0 LIMIT 1`, [
      entitySeq,
      accountSeq,
    ]);
  }

  /** Moves a group's member accounts to another group (or to no group). */
  async regroupMembers(
    entityId: string,
    fromGroupId: string,
    toGroupId: string | null,
  ): Promise<void> {
    await this.sql.run('UPDATE accounts SET group_id = ? WHERE entity_id = ? AND group_id = ?', [
      toGroupId,
      entityId,
      fromGroupId,
    ]);
  }

  private async exists(text: string, params: (string | number)[]): Promise<boolean> {
    return (await this.sql.get(text, params)) !== undefined;
  }
}
