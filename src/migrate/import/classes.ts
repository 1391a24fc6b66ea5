import type { Class } from '../../api/index.js';
import { resolveReference, type Resolution } from '../../client/references.js';

/**
 * The workspace's classes, for a file's `classes` column: each label resolved once by the one
 * rule (id, else label, trimmed and case-insensitive); a label several classes carry is
 * ambiguous, never guessed.
 */
export class ClassBook {
  private readonly resolved = new Map<string, Resolution<Class>>();
  private readonly byId: Map<string, Class>;

  constructor(
    private readonly classes: readonly Class[],
    /** Ids of another workspace's classes, each to the id of the class made for it here. */
    private readonly aliases: ReadonlyMap<string, string> = new Map(),
  ) {
    this.byId = new Map(classes.map((c) => [c.id, c]));
  }

  resolve(label: string): Resolution<Class> {
    let resolution = this.resolved.get(label);
    if (!resolution) {
      const given = this.aliases.get(label) ?? label;
      resolution = resolveReference(this.classes, given, (c) => ({ id: c.id, name: c.label }));
      this.resolved.set(label, resolution);
    }
    return resolution;
  }

  /** `Region › West (0192…)`: a class as a person tells it from another of the same label. */
  describe(item: Class): string {
    const path = [item.label];
    for (let at = item; at.parentClassId !== null;) {
      const parent = this.byId.get(at.parentClassId);
      if (!parent) break;
      path.unshift(parent.label);
      at = parent;
    }
    return `${path.join(' › ')} (${item.id})`;
  }
}
