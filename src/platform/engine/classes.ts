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

  list(organizationId: string, workspaceId: string, query: ListQuery) {
    this.workspaces.get(organizationId, workspaceId);
    const ordered = orderClassTree(this.store.classes.all(workspaceId)).map(toClass);
    return sliceList(pageOf(query), ordered);
  }

  get(organizationId: string, workspaceId: string, id: string): Class {
    this.workspaces.get(organizationId, workspaceId);
    return toClass(this.find(workspaceId, id));
  }

  create(organizationId: string, workspaceId: string, body: CreateClassBody): Class {
    this.workspaces.get(organizationId, workspaceId);
    const label = requireName(body.label, 'label');
    return this.store.transaction(() => {
      const parent = body.parentClassId
        ? this.find(workspaceId, body.parentClassId, 'parent class')
        : null;
      this.requireFreeLabel(workspaceId, parent?.id ?? null, label);
      const id = newId();
      const created: Class = {
        id,
        label,
        parentClassId: parent?.id ?? null,
        rootClassId: parent?.rootClassId ?? id,
        createdAt: new Date().toISOString(),
      };
      this.store.classes.insert(workspaceId, created, nameKey(label));
      return created;
    });
  }

  rename(organizationId: string, workspaceId: string, id: string, body: RenameClassBody): Class {
    this.workspaces.get(organizationId, workspaceId);
    const label = requireName(body.label, 'label');
    return this.store.transaction(() => {
      const existing = this.find(workspaceId, id);
      this.requireFreeLabel(workspaceId, existing.parentClassId, label, id);
      this.store.classes.rename(id, label, nameKey(label));
      return toClass({ ...existing, label });
    });
  }

  /**
   * Deletes the class and its whole subtree. Assignments of those classes go with them: journal
   * lines lose them, and rules lose their `class_id` actions naming them.
   */
  delete(organizationId: string, workspaceId: string, id: string): void {
    this.workspaces.get(organizationId, workspaceId);
    this.store.transaction(() => {
      this.find(workspaceId, id);
      this.rules.detachActions(workspaceId, 'class_id', this.subtreeIds(workspaceId, id));
      // Journal lines' class assignments go by cascade with the classes.
      this.store.classes.delete(id);
    });
  }

  private subtreeIds(workspaceId: string, id: string): Set<string> {
    const all = this.store.classes.all(workspaceId);
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

  private find(workspaceId: string, id: string, what = 'class'): ClassRecord {
    const found = this.store.classes.find(workspaceId, id);
    if (!found) throw notFound(what);
    return found;
  }

  private requireFreeLabel(
    workspaceId: string,
    parentClassId: string | null,
    label: string,
    exceptId?: string,
  ): void {
    const holder = this.store.classes.siblingWithLabel(workspaceId, parentClassId, nameKey(label));
    if (holder !== undefined && holder !== exceptId) {
      throw conflict(`a sibling class is already labelled "${label}"`);
    }
  }
}
