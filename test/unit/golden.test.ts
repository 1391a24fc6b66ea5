import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, GOLDEN_DIR } from '../helpers/golden.js';

describe('golden files', () => {
  it('a missing golden fails (and is not written) unless UPDATE_GOLDEN=1', () => {
    const name = 'no-such-golden.txt';
    const update = process.env.UPDATE_GOLDEN;
    delete process.env.UPDATE_GOLDEN;
    try {
      expect(() => expectGolden(name, 'text\n')).toThrow(
        'no golden file test/golden/no-such-golden.txt: run UPDATE_GOLDEN=1 npm test',
      );
      expect(existsSync(path.join(GOLDEN_DIR, name))).toBe(false);
    } finally {
      if (update !== undefined) process.env.UPDATE_GOLDEN = update;
    }
  });
});
