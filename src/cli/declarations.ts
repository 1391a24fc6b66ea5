import { readFileSync } from 'node:fs';
import type { AnyCommand } from './command.js';

/** A leaf as its help and completion see it: its declaration without its work (`run`). */
export type LeafDeclaration = Omit<AnyCommand, 'run'>;

let declarations: Readonly<Record<string, LeafDeclaration>> | null | undefined;

/**
 * Every leaf's declaration, as the build wrote them beside the bundle (`leaves.json`, by the
 * leaf's command path), read when first asked: a leaf's own help and its completion then need
 * not load the leaf, whose module brings its work (`report pl --help` loaded the API's
 * schemas). None when run from source: the leaf is loaded.
 */
export function writtenDeclarations(): Readonly<Record<string, LeafDeclaration>> | undefined {
  if (declarations === undefined) {
    try {
      const file = new URL('./leaves.json', import.meta.url);
      declarations = JSON.parse(readFileSync(file, 'utf8')) as Record<string, LeafDeclaration>;
    } catch {
      declarations = null;
    }
  }
  return declarations ?? undefined;
}
