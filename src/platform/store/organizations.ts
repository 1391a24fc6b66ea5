import type { Organization } from '../../api/index.js';
import type { Sql } from './sql.js';

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
  constructor(private readonly sql: Sql) {}

  async insert(
    organization: Organization,
    options: { isDefault?: boolean } = {},
  ): Promise<Organization> {
    await this.sql.run(
      'INSERT INTO organizations (id, name, is_default, created_at) VALUES (?, ?, ?, ?)',
      [organization.id, organization.name, options.isDefault ?? false, organization.createdAt],
    );
    return organization;
  }

  async addTokenHash(organizationId: string, tokenHash: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO organization_tokens (token_hash, organization_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT DO NOTHING`,
      [tokenHash, organizationId, new Date().toISOString()],
    );
  }

  async organizationIdForTokenHash(tokenHash: string): Promise<string | undefined> {
    const row = await this.sql.get<{ organization_id: string }>(
      'SELECT organization_id FROM organization_tokens WHERE token_hash = ?',
      [tokenHash],
    );
    return row?.organization_id;
  }

  async findDefault(): Promise<Organization | undefined> {
    const row = await this.sql.get<OrganizationRow>(
      'SELECT id, name, created_at FROM organizations WHERE is_default',
    );
    return row && toOrganization(row);
  }
}
