import { newId } from './ids.js';
import type {
  CreateEntityBody,
  Entity,
  ListQuery,
  SandboxWorkspace,
  UpdateEntityBody,
} from '../../api/index.js';
import { notFound } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import type { Store } from '../store/index.js';
import { listOf, pageOf } from './pagination.js';
import type { WorkspaceService } from './workspaces.js';

export interface EntityScope {
  entity: Entity;
  /** The integer key the entity's postings carry. */
  entitySeq: number;
  workspace: SandboxWorkspace;
}

/** Entities (the businesses of a workspace), managed through the sandbox control plane. */
export class EntityService {
  constructor(
    private readonly store: Store,
    private readonly workspaces: WorkspaceService,
  ) {}

  create(organizationId: string, workspaceId: string, body: CreateEntityBody): Entity {
    this.workspaces.get(organizationId, workspaceId);
    const entity: Entity = {
      id: newId(),
      workspaceId,
      name: requireName(body.name, 'name'),
      bookkeepingStartDate: body.bookkeepingStartDate ?? null,
      lockDate: null,
      accrualLedgerOpen: false,
      createdAt: new Date().toISOString(),
    };
    this.store.entities.insert(entity);
    return entity;
  }

  list(organizationId: string, workspaceId: string, query: ListQuery) {
    this.workspaces.get(organizationId, workspaceId);
    const page = pageOf(query);
    return listOf(page, this.store.entities.list(workspaceId, page.limit, page.offset));
  }

  /** An entity of the organization's book of business; anything else reads as 404. */
  get(organizationId: string, id: string): Entity {
    const entity = this.store.entities.find(organizationId, id);
    if (!entity) throw notFound('entity');
    return entity;
  }

  /** An entity with its workspace (time zone, flags), for rules that need both. */
  scope(organizationId: string, id: string): EntityScope {
    const entity = this.get(organizationId, id);
    return {
      entity,
      entitySeq: this.store.entities.seqOf(id),
      workspace: this.workspaces.get(organizationId, entity.workspaceId),
    };
  }

  update(organizationId: string, id: string, body: UpdateEntityBody): Entity {
    const entity = this.get(organizationId, id);
    const updated: Entity = {
      ...entity,
      name: body.name === undefined ? entity.name : requireName(body.name, 'name'),
      bookkeepingStartDate:
        body.bookkeepingStartDate === undefined
          ? entity.bookkeepingStartDate
          : body.bookkeepingStartDate,
      lockDate: body.lockDate === undefined ? entity.lockDate : body.lockDate,
    };
    this.store.entities.update(updated);
    return updated;
  }

  /** Opens the accrual ledger; opening an open ledger changes nothing. */
  openAccrualLedger(organizationId: string, id: string): Entity {
    const entity = this.get(organizationId, id);
    if (entity.accrualLedgerOpen) return entity;
    const updated = { ...entity, accrualLedgerOpen: true };
    this.store.entities.update(updated);
    return updated;
  }
}
