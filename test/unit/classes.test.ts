import { describe, expect, it } from 'vitest';
import { orderClassTree, type ClassNode } from '../../src/platform/domain/classes.js';

let sequence = 0;
const node = (
  id: string,
  label: string,
  parentClassId: string | null,
  rootClassId = parentClassId ?? id,
): ClassNode => ({
  id,
  label,
  parentClassId,
  rootClassId,
  sequence: ++sequence,
});

describe('orderClassTree', () => {
  it('orders trees by root creation, depth-first, siblings by label case-insensitively', () => {
    const classes = [
      node('r1', 'Region', null),
      node('r2', 'Department', null),
      node('w', 'west', 'r1', 'r1'),
      node('e', 'East', 'r1', 'r1'),
      node('s', 'Sales', 'r2', 'r2'),
      node('b', 'Boston', 'e', 'r1'),
      node('a', 'albany', 'e', 'r1'),
    ];
    const shuffled = [
      classes[5]!,
      classes[1]!,
      classes[6]!,
      classes[0]!,
      classes[3]!,
      classes[2]!,
      classes[4]!,
    ];
    expect(orderClassTree(shuffled).map((c) => c.label)).toEqual([
      'Region',
      'East',
      'albany',
      'Boston',
      'west',
      'Department',
      'Sales',
    ]);
  });

  it('breaks label ties by creation and handles an empty workspace', () => {
    const first = node('x1', 'Same', null);
    const second = node('x2', 'Same', 'x1');
    const third = node('x3', 'Same', 'x1');
    expect(orderClassTree([third, second, first]).map((c) => c.id)).toEqual(['x1', 'x2', 'x3']);
    expect(orderClassTree([])).toEqual([]);
  });
});
