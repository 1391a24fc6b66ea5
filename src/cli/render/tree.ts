/** Indents items under their parents (items already in parent-before-child order). */
export function treeLabels<T>(
  items: readonly T[],
  id: (item: T) => string,
  parent: (item: T) => string | null,
  label: (item: T) => string,
): string[] {
  const depth = new Map<string, number>();
  return items.map((item) => {
    const parentId = parent(item);
    const level = parentId === null ? 0 : (depth.get(parentId) ?? 0) + 1;
    depth.set(id(item), level);
    return `${'  '.repeat(level)}${label(item)}`;
  });
}
