import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// The files linted here do not exist: the rules that need their types are left out.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
});

/** The messages ESLint gives `code` as if it were the file at `file` (it need not exist). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.message);
}

describe('lint: the arrows of the layout hold at every folder depth', () => {
  it.each([
    ['src/core/x.ts', "import { a } from '../cli/context.js';\nexport const b = a;", 'src/cli'],
    ['src/api/x.ts', "import { a } from '../core/money.js';\nexport const b = a;", 'src/core'],
    [
      'src/platform/domain/reports/x.ts',
      "import { a } from '../../store/index.js';\nexport const b = a;",
      'src/platform/store',
    ],
    [
      'src/platform/domain/reports/deep/x.ts',
      "export const b = () => import('../../../http/app.js');",
      'src/platform/http',
    ],
    ['src/platform/http/routes/x.ts', "export { a } from '../../../cli/context.js';", 'src/cli'],
    [
      'src/client/deep/x.ts',
      "import { a } from '../../platform/index.js';\nexport const b = a;",
      'src/platform',
    ],
    ['src/migrate/x.ts', "import { a } from '../cli/context.js';\nexport const b = a;", 'src/cli'],
    [
      'src/platform/domain/x.ts',
      "import Database from 'better-sqlite3';\nexport const b = Database;",
      'better-sqlite3',
    ],
  ])('in %s, refuses %s (it reaches %s)', async (file, code, forbidden) => {
    expect(await lint(file, code)).toEqual([
      expect.stringContaining(`may not import ${forbidden}`),
    ]);
  });

  it('lets the CLI use the platform, and a part its own folder', async () => {
    expect(
      await lint('src/cli/commands/x.ts', "export { a } from '../../platform/index.js';"),
    ).toEqual([]);
    expect(
      await lint('src/platform/domain/reports/x.ts', "export { a } from '../accounts.js';"),
    ).toEqual([]);
  });
});

describe('lint: commands reach the world through their context', () => {
  it.each([
    'export const f = () => process.env.HOME;',
    'export const f = () => process.stdout.write("x");',
    'export const f = () => Date.now();',
  ])('refuses %s in a command', async (code) => {
    expect(await lint('src/cli/commands/coa/x.ts', code)).toEqual([
      expect.stringMatching(/use the CommandContext|use ctx.clock/),
    ]);
  });
});

describe('lint: money only through src/core', () => {
  it.each([
    'export const f = (cents: number) => cents / 100;',
    'export const f = (amount: number) => Math.round(amount * 100);',
    'export const f = (amount: number) => 100 * amount;',
    'export const f = (lines: { debitAmount: number }[]) => lines.reduce((s, l) => s + l.debitAmount, 0);',
  ])('refuses %s outside src/core', async (code) => {
    expect(await lint('src/cli/commands/je/x.ts', code)).toEqual([
      expect.stringMatching(/money goes through src\/core|a float sum of amounts/),
    ]);
  });

  it('allows it in src/core', async () => {
    expect(await lint('src/core/x.ts', 'export const f = (cents: number) => cents / 100;')).toEqual(
      [],
    );
  });
});
