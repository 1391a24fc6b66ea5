import type { AccountType } from '../../api/index.js';
import { MAX_GROUP_DEPTH } from '../../api/index.js';
import { typeOrder } from './accounts.js';
import { invalid } from './errors.js';
import { nameKey } from './names.js';

export interface GroupNode {
  id: string;
  name: string;
  type: AccountType;
  parentGroupId: string | null;
  sequence: number;
}

/** Depth of a group: a top-level group is at depth 1. */
export function depthOf(groupId: string, byId: ReadonlyMap<string, GroupNode>): number {
  let depth = 0;
  let current: string | null = groupId;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    depth += 1;
    current = byId.get(current)?.parentGroupId ?? null;
  }
  return depth;
}

/** Levels from a group down to its deepest descendant, the group itself counting 1. */
export function heightOf(groupId: string, groups: readonly GroupNode[]): number {
  const children = groups.filter((g) => g.parentGroupId === groupId);
  return 1 + Math.max(0, ...children.map((child) => heightOf(child.id, groups)));
}

/**
 * Checks that placing `group` (with its subtree) under `parentId` keeps the tree a tree of
 * one type, at most five levels deep.
 */
export function validatePlacement(
  group: { id: string | null; type: AccountType },
  parentId: string | null,
  groups: readonly GroupNode[],
): void {
  if (parentId === null) {
    if (group.id !== null && heightOf(group.id, groups) > MAX_GROUP_DEPTH) {
      throw invalid(`account groups nest at most ${MAX_GROUP_DEPTH} levels deep`);
    }
    return;
  }
  const byId = new Map(groups.map((g) => [g.id, g]));
  const parent = byId.get(parentId);
  if (!parent) throw invalid('parentGroupId must name an account group of the entity');
  if (parent.type !== group.type) {
    throw invalid(`parentGroupId must name a group of type ${group.type}, not ${parent.type}`);
  }
  if (group.id !== null) {
    for (let at: string | null = parentId; at !== null; at = byId.get(at)?.parentGroupId ?? null) {
      if (at === group.id) throw invalid('a group cannot be moved under itself or its descendants');
    }
  }
  const height = group.id === null ? 1 : heightOf(group.id, groups);
  if (depthOf(parentId, byId) + height > MAX_GROUP_DEPTH) {
    throw invalid(`account groups nest at most ${MAX_GROUP_DEPTH} levels deep`);
  }
}

/**
 * Groups in chart display order: by type in the type table's order, then depth-first with
 * parents before children and siblings by name.
 */
export function orderGroups<T extends GroupNode>(groups: readonly T[]): T[] {
  const children = new Map<string | null, T[]>();
  for (const group of groups) {
    const siblings = children.get(group.parentGroupId) ?? [];
    siblings.push(group);
    children.set(group.parentGroupId, siblings);
  }
  const compare = (a: T, b: T) =>
    typeOrder(a.type) - typeOrder(b.type) ||
    nameKey(a.name).localeCompare(nameKey(b.name), 'en-US') ||
    a.sequence - b.sequence;
  const ordered: T[] = [];
  const visit = (group: T) => {
    ordered.push(group);
    for (const child of (children.get(group.id) ?? []).sort(compare)) visit(child);
  };
  for (const root of (children.get(null) ?? []).sort(compare)) visit(root);
  return ordered;
}
