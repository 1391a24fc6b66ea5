import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module of ours reaches itself through its imports — static, type-only, re-exports and
 * dynamic `import()` alike (a lazy import hides a circle, it does not remove it). A shared piece
 * belongs below both of its users. The layout's arrows between parts are eslint's
 * (eslint.config.js); this is the same rule within a part.
 */

const SOURCE = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one module (or a module importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (module: string): void => {
    index.set(module, next);
    lowest.set(module, next);
    next += 1;
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(module, Math.min(lowest.get(module)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(module, Math.min(lowest.get(module)!, index.get(target)!));
      }
    }
    if (lowest.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || (graph.get(module) ?? []).includes(module)) {
      found.push(component.map((file) => path.relative(SOURCE, file)).sort());
    }
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

describe('imports', () => {
  it('form no circle anywhere in src/', () => {
    expect(circles(importGraph(sourceFiles(SOURCE)))).toEqual([]);
  });

  it('are all seen, dynamic and type-only ones too (the check would miss a circle otherwise)', () => {
    const { importedFiles } = ts.preProcessFile(
      "import type { A } from './a.js';\nexport { B } from './b.js';\nconst c = await import('./c.js');",
      true,
      true,
    );
    expect(importedFiles.map((imported) => imported.fileName)).toEqual([
      './a.js',
      './b.js',
      './c.js',
    ]);
  });
});
