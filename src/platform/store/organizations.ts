import type { Organization } from '../../api/index.js';
import type { SqliteDatabase } from './database.js';

interface OrganizationRow {
  id: string;
  name: string;
  created_at: string;
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** Organizations and their access tokens, which are stored only as hashes. */
export class OrganizationStore {
  private readonly insertStatement;
  private readonly insertToken;
  private readonly byTokenHash;
  private readonly defaultOrganization;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      'INSERT INTO organizations (id, name, is_default, created_at) VALUES (?, ?, ?, ?)',
    );
    this.insertToken = db.prepare(
      'INSERT OR IGNORE INTO organization_tokens (token_hash, organization_id, created_at) VALUES (?, ?, ?)',
    );
    this.byTokenHash = db
      .prepare('SELECT organization_id FROM organization_tokens WHERE token_hash = ?')
      .pluck();
    this.defaultOrganization = db.prepare<[], OrganizationRow>(
      'SELECT id, name, created_at FROM organizations WHERE is_default = 1',
    );
  }

  insert(organization: Organization, options: { isDefault?: boolean } = {}): Organization {
    this.insertStatement.run(
      organization.id,
      organization.name,
      options.isDefault ? 1 : 0,
      organization.createdAt,
    );
    return organization;
  }

  addTokenHash(organizationId: string, tokenHash: string): void {
    this.insertToken.run(tokenHash, organizationId, new Date().toISOString());
  }

  organizationIdForTokenHash(tokenHash: string): string | undefined {
    return this.byTokenHash.get(tokenHash) as string | undefined;
  }

  findDefault(): Organization | undefined {
    const row = this.defaultOrganization.get();
    return row && toOrganization(row);
  }
}
