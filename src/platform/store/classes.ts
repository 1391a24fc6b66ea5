import type { Class } from '../../api/index.js';
import type { ClassNode } from '../domain/classes.js';
import { isStoredId, placeholders, type Sql } from './sql.js';

interface ClassRow {
  id: string;
  label: string;
  parent_class_id: string | null;
  root_class_id: string;
  created_at: string;
  sequence: number;
}

export type ClassRecord = Class & ClassNode;

const COLUMNS = 'id, label, parent_class_id, root_class_id, created_at, rowid AS sequence';

const toRecord = (row: ClassRow): ClassRecord => ({
  id: row.id,
  label: row.label,
  parentClassId: row.parent_class_id,
  rootClassId: row.root_class_id,
  createdAt: row.created_at,
  sequence: Number(row.sequence),
});

export class ClassStore {
  constructor(private readonly sql: Sql) {}

  async insert(workspaceId: string, value: Class, labelKey: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO classes (id, workspace_id, parent_class_id, root_class_id, label, label_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        value.id,
        workspaceId,
        value.parentClassId,
        value.rootClassId,
        value.label,
        labelKey,
        value.createdAt,
      ],
    );
  }

  async find(workspaceId: string, id: string): Promise<ClassRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<ClassRow>(
      `SELECT ${COLUMNS} FROM classes WHERE id = ? AND workspace_id = ?`,
      [id, workspaceId],
    );
    return row && toRecord(row);
  }

  /** The classes of the workspace among some ids (the others are absent), in no order. */
  async byIds(workspaceId: string, ids: readonly string[]): Promise<ClassRecord[]> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (wanted.length === 0) return [];
    const rows = await this.sql.all<ClassRow>(
      `SELECT ${COLUMNS} FROM classes WHERE workspace_id = ? AND id IN (${placeholders(wanted.length)})`,
      [workspaceId, ...wanted],
    );
    return rows.map(toRecord);
  }

  /** Every class of the workspace, in no particular order. */
  async all(workspaceId: string): Promise<ClassRecord[]> {
    const rows = await this.sql.all<ClassRow>(
      `SELECT ${COLUMNS} FROM classes WHERE workspace_id = ?`,
      [workspaceId],
    );
    return rows.map(toRecord);
  }

  /** The id of the sibling holding a label key, if any. */
  async siblingWithLabel(
    workspaceId: string,
    parentClassId: string | null,
    labelKey: string,
  ): Promise<string | undefined> {
    const row = await this.sql.get<{ id: string }>(
      `SELECT id FROM classes WHERE workspace_id = ? AND parent_class_id IS NOT DISTINCT FROM ?
         AND label_key = ?`,
      [workspaceId, parentClassId, labelKey],
    );
    return row?.id;
  }

  async rename(id: string, label: string, labelKey: string): Promise<void> {
    await this.sql.run('UPDATE classes SET label = ?, label_key = ? WHERE id = ?', [
      label,
      labelKey,
      id,
    ]);
  }

  /** Deletes the class; its subtree follows by cascade. */
  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM classes WHERE id = ?', [id]);
  }
}
