import type { SandboxWorkspace, WorkspaceFlags, WorkspaceTimezone } from '../../api/index.js';
import type { SqliteDatabase } from './database.js';

interface WorkspaceRow {
  id: string;
  name: string;
  timezone: string;
  custom_chart_of_accounts: number;
  billing_owner: string;
  external_users: number;
  rule_generation_eligible: number;
  created_at: string;
}

export type WorkspaceRecord = SandboxWorkspace;

const COLUMNS =
  'id, name, timezone, custom_chart_of_accounts, billing_owner, external_users, rule_generation_eligible, created_at';

const toRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone as WorkspaceTimezone,
  createdAt: row.created_at,
  customChartOfAccounts: row.custom_chart_of_accounts === 1,
  billingOwner: row.billing_owner as WorkspaceRecord['billingOwner'],
  externalUsers: row.external_users,
  ruleGenerationEligible: row.rule_generation_eligible === 1,
});

export class WorkspaceStore {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly countStatement;
  private readonly deleteStatement;
  private readonly updateFlagsStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      'INSERT INTO workspaces (id, organization_id, name, timezone, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.getStatement = db.prepare<[string, string], WorkspaceRow>(
      `SELECT ${COLUMNS} FROM workspaces WHERE id = ? AND organization_id = ?`,
    );
    this.listStatement = db.prepare<[string, number, number], WorkspaceRow>(
      `SELECT ${COLUMNS} FROM workspaces WHERE organization_id = ? ORDER BY rowid LIMIT ? OFFSET ?`,
    );
    this.countStatement = db
      .prepare('SELECT COUNT(*) FROM workspaces WHERE organization_id = ?')
      .pluck();
    this.deleteStatement = db.prepare('DELETE FROM workspaces WHERE id = ?');
    this.updateFlagsStatement = db.prepare(
      `UPDATE workspaces SET custom_chart_of_accounts = @customChartOfAccounts,
         billing_owner = @billingOwner, external_users = @externalUsers,
         rule_generation_eligible = @ruleGenerationEligible
       WHERE id = @id`,
    );
  }

  insert(
    organizationId: string,
    workspace: { id: string; name: string; timezone: WorkspaceTimezone; createdAt: string },
  ): void {
    this.insertStatement.run(
      workspace.id,
      organizationId,
      workspace.name,
      workspace.timezone,
      workspace.createdAt,
    );
  }

  /** A workspace of the organization, or undefined (other organizations' read as absent). */
  find(organizationId: string, id: string): WorkspaceRecord | undefined {
    const row = this.getStatement.get(id, organizationId);
    return row && toRecord(row);
  }

  list(organizationId: string, limit: number, offset: number) {
    return {
      rows: this.listStatement.all(organizationId, limit, offset).map(toRecord),
      total: Number(this.countStatement.get(organizationId)),
    };
  }

  updateFlags(id: string, flags: WorkspaceFlags): void {
    this.updateFlagsStatement.run({
      id,
      customChartOfAccounts: flags.customChartOfAccounts ? 1 : 0,
      billingOwner: flags.billingOwner,
      externalUsers: flags.externalUsers,
      ruleGenerationEligible: flags.ruleGenerationEligible ? 1 : 0,
    });
  }

  /** Deletes the workspace and, by cascade, everything in it. */
  delete(id: string): void {
    this.deleteStatement.run(id);
  }
}
