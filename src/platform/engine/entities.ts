import { newId } from './ids.js';
import type {
  CreateEntityBody,
  Entity,
  ListQuery,
  SandboxWorkspace,
  UpdateEntityBody,
} from '../../api/index.js';
import { CALENDAR_YEAR, isFiscalYearStart } from '../../core/periods.js';
import { invalid, notFound } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import type { Store } from '../store/index.js';
import { listOf, pageOf } from './pagination.js';
import type { WorkspaceService } from './workspaces.js';

/**
 * A fiscal year start as the body gives it (`MM-DD`, the schema checks its shape): a day every
 * year has. 29 February (and 31 April) is a 400; none is a calendar year.
 */
function fiscalYearStartOf(text: string | undefined): string {
  if (text === undefined) return CALENDAR_YEAR;
  if (!isFiscalYearStart(text))
    throw invalid(
      `fiscalYearStart: "${text}" is not a day every year has (MM-DD; 29 February is not)`,
    );
  return text;
}

/** The name of an entity's lock (see EntityService.lockedScope). */
export const entityLockName = (entityId: string) => `entity ${entityId}`;

export interface EntityScope {
  entity: Entity;
  /** The integer key the entity's postings carry. */
  entitySeq: number;
  workspace: SandboxWorkspace;
  /** Whether its accounting migration is open: entries written now are `migration`. */
  migrationOpen: boolean;
}

/** Entities (the businesses of a workspace), managed through the sandbox control plane. */
export class EntityService {
  constructor(
    private readonly store: Store,
    private readonly workspaces: WorkspaceService,
  ) {}

  async create(
    organizationId: string,
    workspaceId: string,
    body: CreateEntityBody,
  ): Promise<Entity> {
    await this.workspaces.get(organizationId, workspaceId);
    const entity: Entity = {
      id: newId(),
      workspaceId,
      name: requireName(body.name, 'name'),
      bookkeepingStartDate: body.bookkeepingStartDate ?? null,
      lockDate: null,
      accrualLedgerOpen: false,
      fiscalYearStart: fiscalYearStartOf(body.fiscalYearStart),
      createdAt: new Date().toISOString(),
    };
    await this.store.entities.insert(entity);
    return entity;
  }

  async list(organizationId: string, workspaceId: string, query: ListQuery) {
    await this.workspaces.get(organizationId, workspaceId);
    const page = pageOf(query);
    return listOf(page, await this.store.entities.list(workspaceId, page.limit, page.offset));
  }

  /** An entity of the organization's book of business; anything else reads as 404. */
  async get(organizationId: string, id: string): Promise<Entity> {
    const entity = await this.store.entities.find(organizationId, id);
    if (!entity) throw notFound('entity');
    return entity;
  }

  /** An entity with its workspace (time zone, flags), for rules that need both. */
  async scope(organizationId: string, id: string): Promise<EntityScope> {
    const scope = await this.store.entities.findWithWorkspace(organizationId, id);
    if (!scope) throw notFound('entity');
    return scope;
  }

  async update(organizationId: string, id: string, body: UpdateEntityBody): Promise<Entity> {
    return this.store.transaction(async () => {
      const entity = await this.get(organizationId, id);
      // A lock date moves only while no entry of the entity is being written.
      await this.lockExclusively(id);
      const updated: Entity = {
        ...entity,
        name: body.name === undefined ? entity.name : requireName(body.name, 'name'),
        bookkeepingStartDate:
          body.bookkeepingStartDate === undefined
            ? entity.bookkeepingStartDate
            : body.bookkeepingStartDate,
        lockDate: body.lockDate === undefined ? entity.lockDate : body.lockDate,
        fiscalYearStart:
          body.fiscalYearStart === undefined
            ? entity.fiscalYearStart
            : fiscalYearStartOf(body.fiscalYearStart),
      };
      await this.store.entities.update(updated);
      return updated;
    });
  }

  /** Opens the accrual ledger; opening an open ledger changes nothing. */
  async openAccrualLedger(organizationId: string, id: string): Promise<Entity> {
    return this.store.transaction(async () => {
      const entity = await this.get(organizationId, id);
      if (entity.accrualLedgerOpen) return entity;
      await this.lockExclusively(id);
      const updated = { ...entity, accrualLedgerOpen: true };
      await this.store.entities.update(updated);
      return updated;
    });
  }

  /**
   * Within a transaction, the entity's scope read under its shared lock: entries and postings
   * are written under it, several at once, while what they are checked against (the lock date,
   * the ledgers, the chart) changes only under the exclusive lock. Read after the lock, so that
   * the checks see what the writes will meet.
   */
  async lockedScope(organizationId: string, id: string): Promise<EntityScope> {
    // Asked together (PostgreSQL runs them in order: the scope is read once the lock is held).
    const [, scope] = await Promise.all([
      this.store.lock(entityLockName(id), 'shared'),
      this.scope(organizationId, id),
    ]);
    return scope;
  }

  /**
   * Within a transaction, the entity alone: its chart, lock date or ledgers change while no
   * entry of it is being written.
   */
  lockExclusively(id: string): Promise<void> {
    return this.store.lock(entityLockName(id), 'exclusive');
  }
}
