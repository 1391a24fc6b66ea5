import type { Class } from '../../api/index.js';
import type { ClassNode } from '../domain/classes.js';
import type { SqliteDatabase } from './database.js';

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
  sequence: row.sequence,
});

export class ClassStore {
  private readonly insertStatement;
  private readonly findStatement;
  private readonly listStatement;
  private readonly siblingStatement;
  private readonly renameStatement;
  private readonly deleteStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      `INSERT INTO classes (id, workspace_id, parent_class_id, root_class_id, label, label_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findStatement = db.prepare<[string, string], ClassRow>(
      `SELECT ${COLUMNS} FROM classes WHERE id = ? AND workspace_id = ?`,
    );
    this.listStatement = db.prepare<[string], ClassRow>(
      `SELECT ${COLUMNS} FROM classes WHERE workspace_id = ?`,
    );
    this.siblingStatement = db
      .prepare(
        `SELECT id FROM classes WHERE workspace_id = ? AND COALESCE(parent_class_id, '') = ?
         AND label_key = ?`,
      )
      .pluck();
    this.renameStatement = db.prepare('UPDATE classes SET label = ?, label_key = ? WHERE id = ?');
    this.deleteStatement = db.prepare('DELETE FROM classes WHERE id = ?');
  }

  insert(workspaceId: string, value: Class, labelKey: string): void {
    this.insertStatement.run(
      value.id,
      workspaceId,
      value.parentClassId,
      value.rootClassId,
      value.label,
      labelKey,
      value.createdAt,
    );
  }

  find(workspaceId: string, id: string): ClassRecord | undefined {
    const row = this.findStatement.get(id, workspaceId);
    return row && toRecord(row);
  }

  /** Every class of the workspace, in no particular order. */
  all(workspaceId: string): ClassRecord[] {
    return this.listStatement.all(workspaceId).map(toRecord);
  }

  /** The id of the sibling holding a label key, if any. */
  siblingWithLabel(workspaceId: string, parentClassId: string | null, labelKey: string) {
    return this.siblingStatement.get(workspaceId, parentClassId ?? '', labelKey) as
      string | undefined;
  }

  rename(id: string, label: string, labelKey: string): void {
    this.renameStatement.run(label, labelKey, id);
  }

  /** Deletes the class; its subtree follows by cascade. */
  delete(id: string): void {
    this.deleteStatement.run(id);
  }
}
