import type { SandboxWorkspace, WorkspaceFlags, WorkspaceTimezone } from '../../api/index.js';
import { countOf, isStoredId, type Sql } from './sql.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  timezone: string;
  custom_chart_of_accounts: number | boolean;
  billing_owner: string;
  external_users: number;
  rule_generation_eligible: number | boolean;
  created_at: string;
}

export type WorkspaceRecord = SandboxWorkspace;

export const WORKSPACE_COLUMNS =
  'id, name, timezone, custom_chart_of_accounts, billing_owner, external_users, rule_generation_eligible, created_at';

export const toWorkspaceRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone as WorkspaceTimezone,
  createdAt: row.created_at,
  customChartOfAccounts: Boolean(row.custom_chart_of_accounts),
  billingOwner: row.billing_owner as WorkspaceRecord['billingOwner'],
  externalUsers: row.external_users,
  ruleGenerationEligible: Boolean(row.rule_generation_eligible),
});

export class WorkspaceStore {
  constructor(private readonly sql: Sql) {}

  async insert(
    organizationId: string,
    workspace: { id: string; name: string; timezone: WorkspaceTimezone; createdAt: string },
  ): Promise<void> {
    await this.sql.run(
      'INSERT INTO workspaces (id, organization_id, name, timezone, created_at) VALUES (?, ?, ?, ?, ?)',
      [workspace.id, organizationId, workspace.name, workspace.timezone, workspace.createdAt],
    );
  }

  /** A workspace of the organization, or undefined (other organizations' read as absent). */
  async find(organizationId: string, id: string): Promise<WorkspaceRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<WorkspaceRow>(
      `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = ? AND organization_id = ?`,
      [id, organizationId],
    );
    return row && toWorkspaceRecord(row);
  }

  async list(organizationId: string, limit: number, offset: number) {
    const rows = await this.sql.all<WorkspaceRow>(
      `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE organization_id = ? ORDER BY rowid LIMIT ? OFFSET ?`,
      [organizationId, limit, offset],
    );
    return {
      rows: rows.map(toWorkspaceRecord),
      total: await countOf(
        this.sql,
        'SELECT COUNT(*) AS n FROM workspaces WHERE organization_id = ?',
        [organizationId],
      ),
    };
  }

  async updateFlags(id: string, flags: WorkspaceFlags): Promise<void> {
    await this.sql.run(
      `UPDATE workspaces SET custom_chart_of_accounts = ?, billing_owner = ?, external_users = ?,
         rule_generation_eligible = ?
       WHERE id = ?`,
      [
        flags.customChartOfAccounts,
        flags.billingOwner,
        flags.externalUsers,
        flags.ruleGenerationEligible,
        id,
      ],
    );
  }

  /**
   * Deletes the workspace and everything in it: its entities' postings and daily sums here
   * (PostgreSQL keeps no foreign keys on them), the rest by cascade. Call inside a transaction.
   */
  async delete(id: string): Promise<void> {
    const entities = 'SELECT seq FROM entities WHERE workspace_id = ?';
    await this.sql.run(
      `DELETE FROM posting_classes WHERE posting_id IN
         (SELECT id FROM postings WHERE entity_seq IN (${entities}))`,
      [id],
    );
    await this.sql.run(`DELETE FROM postings WHERE entity_seq IN (${entities})`, [id]);
    await this.sql.run(`DELETE FROM daily_balances WHERE entity_seq IN (${entities})`, [id]);
    await this.sql.run('DELETE FROM workspaces WHERE id = ?', [id]);
  }
}
