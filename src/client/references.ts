/**
 * One rule for every name a person types or a file holds (workspaces, entities, accounts,
 * classes, groups): an id; else a code, exactly (accounts); else a name, trimmed and
 * case-insensitive; else a name without its accents (`Cafe` for `Café`). Several matches at the first step that matches are ambiguous: the caller
 * lists the candidates and asks for the id, never picks one.
 */
import { foldedKey, nameKey } from '../core/names.js';

/** A workspace, an entity: its id and what a person calls it. */
export interface Named {
  id: string;
  name: string;
}

export interface Referable {
  id: string;
  /** The name a person reads: a label, a name. */
  name: string;
  /** An account's code, for things that have one. */
  code?: string;
}

export type Resolution<T> =
  | { found: T; ambiguous?: undefined }
  | { found?: undefined; ambiguous: T[] }
  | { found?: undefined; ambiguous?: undefined };

/** Resolves `given` among `items` by id, code, then name. */
export function resolveReference<T>(
  items: readonly T[],
  given: string,
  describe: (item: T) => Referable,
): Resolution<T> {
  const text = given.trim();
  const described = items.map((item) => ({ item, ...describe(item) }));
  const steps: ((d: Referable) => boolean)[] = [
    (d) => d.id === text,
    (d) => d.code !== undefined && d.code === text,
    (d) => nameKey(d.name) === nameKey(text),
    // Without its accents or its exact spacing, where nothing matches as typed.
    (d) => foldedKey(d.name) === foldedKey(text),
  ];
  for (const matches of steps) {
    const found = described.filter(matches);
    if (found.length === 1) return { found: found[0]!.item };
    if (found.length > 1) return { ambiguous: found.map((d) => d.item) };
  }
  return {};
}
