import type { CreateOrganizationResponse, Organization } from '../../api/index.js';
import { newId } from './ids.js';
import { requireName } from '../domain/names.js';
import type { Store } from '../store/index.js';
import { hashToken, newAccessToken } from './tokens.js';

function newOrganization(name: string): Organization {
  return { id: newId(), name, createdAt: new Date().toISOString() };
}

export class OrganizationService {
  constructor(private readonly store: Store) {}

  create(name: string): CreateOrganizationResponse {
    const token = newAccessToken();
    const organization = this.store.transaction(() => {
      const created = this.store.organizations.insert(newOrganization(requireName(name, 'name')));
      this.store.organizations.addTokenHash(created.id, hashToken(token));
      return created;
    });
    return { organization, token };
  }

  /** The organization a bearer token belongs to, if any. */
  authenticate(token: string): string | undefined {
    return this.store.organizations.organizationIdForTokenHash(hashToken(token));
  }

  /**
   * The organization `books serve` and the embedded platform start with. A given token is
   * registered for it (so a fixed `--org-token` keeps working across restarts); without one a
   * fresh token is minted, since stored tokens are hashes that cannot be shown again.
   */
  ensureDefault(token?: string): { organizationId: string; token: string } {
    return this.store.transaction(() => {
      const organization =
        this.store.organizations.findDefault() ??
        this.store.organizations.insert(newOrganization('Default organization'), {
          isDefault: true,
        });
      const chosen = token ?? newAccessToken();
      const ownerId = this.authenticate(chosen);
      if (ownerId !== undefined && ownerId !== organization.id) {
        throw new Error('the given organization token belongs to another organization');
      }
      this.store.organizations.addTokenHash(organization.id, hashToken(chosen));
      return { organizationId: organization.id, token: chosen };
    });
  }
}
