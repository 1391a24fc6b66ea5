import type { Entity } from '../../api/index.js';
import type { SqliteDatabase } from './database.js';

interface EntityRow {
  id: string;
  workspace_id: string;
  name: string;
  bookkeeping_start_date: string | null;
  lock_date: string | null;
  accrual_ledger_open: number;
  created_at: string;
}

const COLUMNS =
  'e.id, e.workspace_id, e.name, e.bookkeeping_start_date, e.lock_date, e.accrual_ledger_open, e.created_at';

const toEntity = (row: EntityRow): Entity => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  bookkeepingStartDate: row.bookkeeping_start_date,
  lockDate: row.lock_date,
  accrualLedgerOpen: row.accrual_ledger_open === 1,
  createdAt: row.created_at,
});

export class EntityStore {
  private readonly insertStatement;
  private readonly findStatement;
  private readonly listStatement;
  private readonly countStatement;
  private readonly updateStatement;
  private readonly seqStatement;
  private readonly organizationStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      `INSERT INTO entities (id, workspace_id, name, bookkeeping_start_date, lock_date, accrual_ledger_open, created_at)
       VALUES (@id, @workspaceId, @name, @bookkeepingStartDate, @lockDate, @accrualLedgerOpen, @createdAt)`,
    );
    this.findStatement = db.prepare<[string, string], EntityRow>(
      `SELECT ${COLUMNS} FROM entities e JOIN workspaces w ON w.id = e.workspace_id
       WHERE e.id = ? AND w.organization_id = ?`,
    );
    this.listStatement = db.prepare<[string, number, number], EntityRow>(
      `SELECT ${COLUMNS} FROM entities e WHERE e.workspace_id = ? ORDER BY e.rowid LIMIT ? OFFSET ?`,
    );
    this.countStatement = db
      .prepare('SELECT COUNT(*) FROM entities WHERE workspace_id = ?')
      .pluck();
    this.seqStatement = db.prepare('SELECT seq FROM entities WHERE id = ?').pluck();
    this.organizationStatement = db
      .prepare(
        'SELECT w.organization_id FROM entities e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = ?',
      )
      .pluck();
    this.updateStatement = db.prepare(
      `UPDATE entities SET name = @name, bookkeeping_start_date = @bookkeepingStartDate,
         lock_date = @lockDate, accrual_ledger_open = @accrualLedgerOpen WHERE id = @id`,
    );
  }

  insert(entity: Entity): void {
    this.insertStatement.run({ ...entity, accrualLedgerOpen: entity.accrualLedgerOpen ? 1 : 0 });
  }

  /** An entity of the organization's book of business, or undefined. */
  find(organizationId: string, id: string): Entity | undefined {
    const row = this.findStatement.get(id, organizationId);
    return row && toEntity(row);
  }

  list(workspaceId: string, limit: number, offset: number) {
    return {
      rows: this.listStatement.all(workspaceId, limit, offset).map(toEntity),
      total: Number(this.countStatement.get(workspaceId)),
    };
  }

  /** The organization an entity belongs to (for background work that has no request). */
  organizationOf(id: string): string | undefined {
    return this.organizationStatement.get(id) as string | undefined;
  }

  /** The integer key postings use for the entity. */
  seqOf(id: string): number {
    return Number(this.seqStatement.get(id));
  }

  update(entity: Entity): void {
    this.updateStatement.run({ ...entity, accrualLedgerOpen: entity.accrualLedgerOpen ? 1 : 0 });
  }
}
