import { nameKey } from './names.js';

export interface ClassNode {
  id: string;
  label: string;
  parentClassId: string | null;
  rootClassId: string;
  /** Creation order: a smaller number was created earlier. */
  sequence: number;
}

/**
 * Classes in list order (local-platform.md §3): trees by the creation of their root; within a
 * tree depth-first, parents before children, siblings by label (case-insensitive, then by
 * creation so the order is total).
 */
export function orderClassTree<T extends ClassNode>(classes: readonly T[]): T[] {
  const children = new Map<string | null, T[]>();
  for (const node of classes) {
    const siblings = children.get(node.parentClassId) ?? [];
    siblings.push(node);
    children.set(node.parentClassId, siblings);
  }
  const bySiblingOrder = (a: T, b: T) =>
    nameKey(a.label).localeCompare(nameKey(b.label), 'en-US') || a.sequence - b.sequence;
  const ordered: T[] = [];
  const visit = (node: T) => {
    ordered.push(node);
    for (const child of (children.get(node.id) ?? []).sort(bySiblingOrder)) visit(child);
  };
  const roots = (children.get(null) ?? []).sort((a, b) => a.sequence - b.sequence);
  for (const root of roots) visit(root);
  return ordered;
}
