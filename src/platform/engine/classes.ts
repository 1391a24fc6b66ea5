import { newId } from './ids.js';
import type { Class, CreateClassBody, ListQuery, RenameClassBody } from '../../api/index.js';
import { orderClassTree } from '../domain/classes.js';
import { conflict, notFound } from '../domain/errors.js';
import { nameKey, requireName } from '../domain/names.js';
import type { ClassRecord } from '../store/classes.js';
import type { Store } from '../store/index.js';
import { pageOf, sliceList } from './pagination.js';
import type { TransactionRuleService } from './transactionRules.js';
import type { WorkspaceService } from './workspaces.js';

const toClass = ({ id, label, parentClassId, rootClassId, createdAt }: ClassRecord): Class => ({
  id,
  label,
  parentClassId,
  rootClassId,
  createdAt,
});

/**
 * Classes: tracking dimensions shared by a workspace's entities. A root class starts a
 * dimension; labels are unique among siblings, case-insensitively after trimming.
 */
export class ClassService {
  constructor(
    private readonly store: Store,
    private readonly workspaces: WorkspaceService,
    private readonly rules: TransactionRuleService,
  ) {}

  async list(organizationId: string, workspaceId: string, query: ListQuery) {
    await this.workspaces.get(organizationId, workspaceId);
    const ordered = orderClassTree(await this.store.classes.all(workspaceId)).map(toClass);
    return sliceList(pageOf(query), ordered);
  }

  async get(organizationId: string, workspaceId: string, id: string): Promise<Class> {
    await this.workspaces.get(organizationId, workspaceId);
    return toClass(await this.find(workspaceId, id));
  }

  async create(organizationId: string, workspaceId: string, body: CreateClassBody): Promise<Class> {
    await this.workspaces.get(organizationId, workspaceId);
    const label = requireName(body.label, 'label');
    return this.store.transaction(async () => {
      await this.lockWorkspace(workspaceId);
      const parent = body.parentClassId
        ? await this.find(workspaceId, body.parentClassId, 'parent class')
        : null;
      await this.requireFreeLabel(workspaceId, parent?.id ?? null, label);
      const id = newId();
      const created: Class = {
        id,
        label,
        parentClassId: parent?.id ?? null,
        rootClassId: parent?.rootClassId ?? id,
        createdAt: new Date().toISOString(),
      };
      await this.store.classes.insert(workspaceId, created, nameKey(label));
      return created;
    });
  }

  async rename(
    organizationId: string,
    workspaceId: string,
    id: string,
    body: RenameClassBody,
  ): Promise<Class> {
    await this.workspaces.get(organizationId, workspaceId);
    const label = requireName(body.label, 'label');
    return this.store.transaction(async () => {
      await this.lockWorkspace(workspaceId);
      const existing = await this.find(workspaceId, id);
      await this.requireFreeLabel(workspaceId, existing.parentClassId, label, id);
      await this.store.classes.rename(id, label, nameKey(label));
      return toClass({ ...existing, label });
    });
  }

  /**
   * Deletes the class and its whole subtree. Assignments of those classes go with them: journal
   * lines lose them, and rules lose their `class_id` actions naming them.
   */
  async delete(organizationId: string, workspaceId: string, id: string): Promise<void> {
    await this.workspaces.get(organizationId, workspaceId);
    await this.store.transaction(async () => {
      await this.lockWorkspace(workspaceId);
      await this.find(workspaceId, id);
      await this.rules.detachActions(
        workspaceId,
        'class_id',
        await this.subtreeIds(workspaceId, id),
      );
      // Journal lines' class assignments go by cascade with the classes.
      await this.store.classes.delete(id);
    });
  }

  /** Sibling labels are checked and written by one process at a time. */
  private lockWorkspace(workspaceId: string): Promise<void> {
    return this.store.lock(`classes of ${workspaceId}`, 'exclusive');
  }

  private async subtreeIds(workspaceId: string, id: string): Promise<Set<string>> {
    const all = await this.store.classes.all(workspaceId);
    const subtree = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const node of all) {
        if (node.parentClassId && subtree.has(node.parentClassId) && !subtree.has(node.id)) {
          subtree.add(node.id);
          grew = true;
        }
      }
    }
    return subtree;
  }

  private async find(workspaceId: string, id: string, what = 'class'): Promise<ClassRecord> {
    const found = await this.store.classes.find(workspaceId, id);
    if (!found) throw notFound(what);
    return found;
  }

  private async requireFreeLabel(
    workspaceId: string,
    parentClassId: string | null,
    label: string,
    exceptId?: string,
  ): Promise<void> {
    const holder = await this.store.classes.siblingWithLabel(
      workspaceId,
      parentClassId,
      nameKey(label),
    );
    if (holder !== undefined && holder !== exceptId) {
      throw conflict(`a sibling class is already labelled "${label}"`);
    }
  }
}
