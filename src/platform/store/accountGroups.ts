import type { AccountGroup, AccountType } from '../../api/index.js';
import type { GroupNode } from '../domain/accountGroups.js';
import type { Sql } from './sql.js';

interface GroupRow {
  id: string;
  name: string;
  type: string;
  parent_group_id: string | null;
  created_at: string;
  sequence: number;
}

export type AccountGroupRecord = AccountGroup & GroupNode;

const toRecord = (row: GroupRow): AccountGroupRecord => ({
  id: row.id,
  name: row.name,
  type: row.type as AccountType,
  parentGroupId: row.parent_group_id,
  createdAt: row.created_at,
  sequence: Number(row.sequence),
});

export class AccountGroupStore {
  constructor(private readonly sql: Sql) {}

  async insert(entityId: string, group: AccountGroup, nameKey: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO account_groups (id, entity_id, name, name_key, type, parent_group_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [group.id, entityId, group.name, nameKey, group.type, group.parentGroupId, group.createdAt],
    );
  }

  /** Every group of the entity, in no particular order. */
  async all(entityId: string): Promise<AccountGroupRecord[]> {
    const rows = await this.sql.all<GroupRow>(
      `SELECT id, name, type, parent_group_id, created_at, rowid AS sequence
       FROM account_groups WHERE entity_id = ?`,
      [entityId],
    );
    return rows.map(toRecord);
  }

  async update(group: AccountGroup, nameKey: string): Promise<void> {
    await this.sql.run(
      'UPDATE account_groups SET name = ?, name_key = ?, parent_group_id = ? WHERE id = ?',
      [group.name, nameKey, group.parentGroupId, group.id],
    );
  }

  /** Moves a group's child groups under another parent (or to the top level). */
  async reparentChildren(
    entityId: string,
    fromGroupId: string,
    toGroupId: string | null,
  ): Promise<void> {
    await this.sql.run(
      'UPDATE account_groups SET parent_group_id = ? WHERE entity_id = ? AND parent_group_id = ?',
      [toGroupId, entityId, fromGroupId],
    );
  }

  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM account_groups WHERE id = ?', [id]);
  }
}
