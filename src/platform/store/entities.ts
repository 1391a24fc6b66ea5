import type { Entity } from '../../api/index.js';
import { migrationIsOpen, type MigrationState } from './accountingMigrations.js';
import { countOf, isStoredId, type Sql } from './sql.js';
import {
  toWorkspaceRecord,
  WORKSPACE_COLUMNS,
  type WorkspaceRecord,
  type WorkspaceRow,
} from './workspaces.js';

interface EntityRow {
  seq: number;
  id: string;
  workspace_id: string;
  name: string;
  bookkeeping_start_date: string | null;
  lock_date: string | null;
  accrual_ledger_open: number | boolean;
  fiscal_year_start: string;
  created_at: string;
}

const COLUMNS =
  'e.seq, e.id, e.workspace_id, e.name, e.bookkeeping_start_date, e.lock_date, e.accrual_ledger_open, e.fiscal_year_start, e.created_at';

const toEntity = (row: EntityRow): Entity => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  bookkeepingStartDate: row.bookkeeping_start_date,
  lockDate: row.lock_date,
  accrualLedgerOpen: Boolean(row.accrual_ledger_open),
  fiscalYearStart: row.fiscal_year_start,
  createdAt: row.created_at,
});

/** An entity with the integer key its postings carry, its workspace and its migration's state. */
export interface EntityWithWorkspace {
  entity: Entity;
  entitySeq: number;
  workspace: WorkspaceRecord;
  /** Whether its accounting migration is open: entries written now are `migration`. */
  migrationOpen: boolean;
}

export class EntityStore {
  constructor(private readonly sql: Sql) {}

  async insert(entity: Entity): Promise<void> {
    await this.sql.run(
      `INSERT INTO entities (id, workspace_id, name, bookkeeping_start_date, lock_date, accrual_ledger_open, fiscal_year_start, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        entity.id,
        entity.workspaceId,
        entity.name,
        entity.bookkeepingStartDate,
        entity.lockDate,
        entity.accrualLedgerOpen,
        entity.fiscalYearStart,
        entity.createdAt,
      ],
    );
  }

  /** An entity of the organization's book of business, or undefined. */
  async find(organizationId: string, id: string): Promise<Entity | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<EntityRow>(
      `SELECT ${COLUMNS} FROM entities e JOIN workspaces w ON w.id = e.workspace_id
       WHERE e.id = ? AND w.organization_id = ?`,
      [id, organizationId],
    );
    return row && toEntity(row);
  }

  /** An entity of the organization with its seq and workspace, in one read. */
  async findWithWorkspace(
    organizationId: string,
    id: string,
  ): Promise<EntityWithWorkspace | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<
      EntityRow & { migration_state: MigrationState | null; [column: `w_${string}`]: unknown }
    >(
      `SELECT ${COLUMNS}, ${WORKSPACE_COLUMNS.split(', ')
        .map((column) => `w.${column} AS w_${column}`)
        .join(', ')}, m.state AS migration_state
       FROM entities e JOIN workspaces w ON w.id = e.workspace_id
       LEFT JOIN accounting_migrations m ON m.entity_id = e.id
       WHERE e.id = ? AND w.organization_id = ?`,
      [id, organizationId],
    );
    if (!row) return undefined;
    const workspace = Object.fromEntries(
      Object.entries(row)
        .filter(([column]) => column.startsWith('w_'))
        .map(([column, value]) => [column.slice(2), value]),
    ) as unknown as WorkspaceRow;
    return {
      entity: toEntity(row),
      entitySeq: Number(row.seq),
      workspace: toWorkspaceRecord(workspace),
      migrationOpen: migrationIsOpen(row.migration_state),
    };
  }

  async list(workspaceId: string, limit: number, offset: number) {
    const rows = await this.sql.all<EntityRow>(
      `SELECT ${COLUMNS} FROM entities e WHERE e.workspace_id = ? ORDER BY e.seq LIMIT ? OFFSET ?`,
      [workspaceId, limit, offset],
    );
    return {
      rows: rows.map(toEntity),
      total: await countOf(this.sql, 'SELECT COUNT(*) AS n FROM entities WHERE workspace_id = ?', [
        workspaceId,
      ]),
    };
  }

  /** The organization an entity belongs to (for background work that has no request). */
  async organizationOf(id: string): Promise<string | undefined> {
    const row = await this.sql.get<{ organization_id: string }>(
      'SELECT w.organization_id FROM entities e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = ?',
      [id],
    );
    return row?.organization_id;
  }

  async update(entity: Entity): Promise<void> {
    await this.sql.run(
      `UPDATE entities SET name = ?, bookkeeping_start_date = ?, lock_date = ?,
         accrual_ledger_open = ?, fiscal_year_start = ? WHERE id = ?`,
      [
        entity.name,
        entity.bookkeepingStartDate,
        entity.lockDate,
        entity.accrualLedgerOpen,
        entity.fiscalYearStart,
        entity.id,
      ],
    );
  }
}
