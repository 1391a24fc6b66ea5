import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

export const GOLDEN_DIR = path.resolve(import.meta.dirname, '../golden');

/**
 * Compares `actual` with the golden file `name` under test/golden/. A missing or different
 * golden fails; `UPDATE_GOLDEN=1 npm test` writes them (then review the diff before committing).
 */
export function expectGolden(
  name: string,
  actual: string,
  /** How to compare: as text, or as the JSON it holds (a golden reformatted by Prettier). */
  compare: 'text' | 'json' = 'text',
): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) {
    throw new Error(
      `no golden file test/golden/${name}: run UPDATE_GOLDEN=1 npm test, then review it`,
    );
  }
  const golden = readFileSync(file, 'utf8');
  if (compare === 'json') expect(JSON.parse(actual)).toEqual(JSON.parse(golden));
  else expect(actual).toBe(golden);
}
