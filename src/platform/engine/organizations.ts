import type { CreateOrganizationResponse, Organization } from '../../api/index.js';
import { newId } from './ids.js';
import { requireName } from '../domain/names.js';
import type { Store } from '../store/index.js';
import { hashToken, newAccessToken } from './tokens.js';

function newOrganization(name: string): Organization {
  return { id: newId(), name, createdAt: new Date().toISOString() };
}

/** How many tokens a process remembers the organization of. */
const KNOWN_TOKENS = 10_000;

export class OrganizationService {
  /**
   * Token hashes already seen, with their organization: a token, once issued, is never
   * revoked nor moved (the API has no way to), so every process may remember it rather than
   * read it for each request. Unknown tokens are not remembered.
   */
  private readonly known = new Map<string, string>();

  constructor(private readonly store: Store) {}

  async create(name: string): Promise<CreateOrganizationResponse> {
    const token = newAccessToken();
    const organization = await this.store.transaction(async () => {
      const created = await this.store.organizations.insert(
        newOrganization(requireName(name, 'name')),
      );
      await this.store.organizations.addTokenHash(created.id, hashToken(token));
      return created;
    });
    return { organization, token };
  }

  /** The organization a bearer token belongs to, if any. */
  async authenticate(token: string): Promise<string | undefined> {
    const tokenHash = hashToken(token);
    const known = this.known.get(tokenHash);
    if (known !== undefined) return known;
    const organizationId = await this.store.organizations.organizationIdForTokenHash(tokenHash);
    if (organizationId !== undefined) {
      if (this.known.size >= KNOWN_TOKENS) this.known.delete(this.known.keys().next().value!);
      this.known.set(tokenHash, organizationId);
    }
    return organizationId;
  }

  /**
   * The organization `books serve` and the embedded platform start with. A given token is
   * registered for it (so a fixed `--org-token` keeps working across restarts); without one a
   * fresh token is minted, since stored tokens are hashes that cannot be shown again.
   */
  async ensureDefault(token?: string): Promise<{ organizationId: string; token: string }> {
    return this.store.transaction(async () => {
      // Processes starting together (`serve --workers`, several machines) make it once.
      await this.store.lock('default organization', 'exclusive');
      const organization =
        (await this.store.organizations.findDefault()) ??
        (await this.store.organizations.insert(newOrganization('Default organization'), {
          isDefault: true,
        }));
      const chosen = token ?? newAccessToken();
      const ownerId = await this.store.organizations.organizationIdForTokenHash(hashToken(chosen));
      if (ownerId !== undefined && ownerId !== organization.id) {
        throw new Error('the given organization token belongs to another organization');
      }
      await this.store.organizations.addTokenHash(organization.id, hashToken(chosen));
      return { organizationId: organization.id, token: chosen };
    });
  }
}
