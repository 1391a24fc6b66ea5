import type {
  CreateWorkspaceBody,
  ListQuery,
  SandboxWorkspace,
  UpdateWorkspaceFlagsBody,
  Workspace,
} from '../../api/index.js';
import { DEFAULT_WORKSPACE_TIMEZONE } from '../../api/index.js';
import { newId } from './ids.js';
import { invalid, notFound } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import type { Store } from '../store/index.js';
import { listOf, pageOf } from './pagination.js';

/** The platform API's view of a workspace: the flags belong to the control plane. */
export function publicWorkspace(workspace: SandboxWorkspace): Workspace {
  const { id, name, timezone, createdAt } = workspace;
  return { id, name, timezone, createdAt };
}

export class WorkspaceService {
  constructor(private readonly store: Store) {}

  async create(organizationId: string, body: CreateWorkspaceBody): Promise<Workspace> {
    const workspace: Workspace = {
      id: newId(),
      name: requireName(body.name, 'name'),
      timezone: body.timezone ?? DEFAULT_WORKSPACE_TIMEZONE,
      createdAt: new Date().toISOString(),
    };
    await this.store.workspaces.insert(organizationId, workspace);
    return workspace;
  }

  /** A workspace of the organization; anything else reads as 404. */
  async get(organizationId: string, id: string): Promise<SandboxWorkspace> {
    const workspace = await this.store.workspaces.find(organizationId, id);
    if (!workspace) throw notFound('workspace');
    return workspace;
  }

  async list(organizationId: string, query: ListQuery) {
    const page = pageOf(query);
    const result = await this.store.workspaces.list(organizationId, page.limit, page.offset);
    return listOf(page, { rows: result.rows.map(publicWorkspace), total: result.total });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const workspace = await this.get(organizationId, id);
    if (workspace.billingOwner !== 'organization') {
      throw invalid('workspace billing is owned by the client, not the organization');
    }
    if (workspace.externalUsers > 0) {
      throw invalid('users from outside the organization are still assigned to the workspace');
    }
    await this.store.transaction(() => this.store.workspaces.delete(id));
  }

  async updateFlags(
    organizationId: string,
    id: string,
    body: UpdateWorkspaceFlagsBody,
  ): Promise<SandboxWorkspace> {
    const workspace = await this.get(organizationId, id);
    const updated: SandboxWorkspace = {
      ...workspace,
      ...Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
    };
    await this.store.workspaces.updateFlags(id, updated);
    return updated;
  }
}
