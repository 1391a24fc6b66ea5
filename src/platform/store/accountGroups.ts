import type { AccountGroup, AccountType } from '../../api/index.js';
import type { GroupNode } from '../domain/accountGroups.js';
import type { SqliteDatabase } from './database.js';

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
  sequence: row.sequence,
});

export class AccountGroupStore {
  private readonly insertStatement;
  private readonly allStatement;
  private readonly updateStatement;
  private readonly reparentStatement;
  private readonly deleteStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      `INSERT INTO account_groups (id, entity_id, name, name_key, type, parent_group_id, created_at)
       VALUES (@id, @entityId, @name, @nameKey, @type, @parentGroupId, @createdAt)`,
    );
    this.allStatement = db.prepare<[string], GroupRow>(
      `SELECT id, name, type, parent_group_id, created_at, rowid AS sequence
       FROM account_groups WHERE entity_id = ?`,
    );
    this.updateStatement = db.prepare(
      'UPDATE account_groups SET name = @name, name_key = @nameKey, parent_group_id = @parentGroupId WHERE id = @id',
    );
    this.reparentStatement = db.prepare(
      'UPDATE account_groups SET parent_group_id = ? WHERE entity_id = ? AND parent_group_id = ?',
    );
    this.deleteStatement = db.prepare('DELETE FROM account_groups WHERE id = ?');
  }

  insert(entityId: string, group: AccountGroup, nameKey: string): void {
    this.insertStatement.run({ ...group, entityId, nameKey });
  }

  /** Every group of the entity, in no particular order. */
  all(entityId: string): AccountGroupRecord[] {
    return this.allStatement.all(entityId).map(toRecord);
  }

  update(group: AccountGroup, nameKey: string): void {
    this.updateStatement.run({ ...group, nameKey });
  }

  /** Moves a group's child groups under another parent (or to the top level). */
  reparentChildren(entityId: string, fromGroupId: string, toGroupId: string | null): void {
    this.reparentStatement.run(toGroupId, entityId, fromGroupId);
  }

  delete(id: string): void {
    this.deleteStatement.run(id);
  }
}
