import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUPS, LEAVES } from '../../src/cli/registry.js';
import { BOOKS_BIN, temporaryHome } from '../helpers/cli.js';
import { expectGolden, GOLDEN_DIR } from '../helpers/golden.js';

/**
 * Help through the built binary, which shows it from what the build wrote (each leaf's listing
 * and declaration: src/cli/program.ts) without loading the leaves: the same text as the leaves
 * themselves give (the goldens of test/contract/cliGolden.test.ts, made in process from the
 * sources), and no leaf's module loaded, by the chunk trace (NODE_DEBUG=books). Completion,
 * likewise; and an embedded read loads its own route's validators only. SQLite's run only.
 */
describe('help from what the build wrote', () => {
  const home = temporaryHome();
  afterAll(() => home.cleanup());
  const meta = JSON.parse(
    readFileSync(path.join(path.dirname(BOOKS_BIN), '../dist/bundle/meta.json'), 'utf8'),
  ) as { outputs: Record<string, { inputs: Record<string, unknown> }> };

  /** books with these arguments, traced: its result and the sources of the chunks it loaded. */
  const traced = (args: string[], debug = 'books') => {
    const result = spawnSync(process.execPath, [BOOKS_BIN, ...args], {
      env: { ...home.env, NODE_DEBUG: debug },
      encoding: 'utf8',
    });
    const sources = result.stderr
      .split('\n')
      .map((line) => /^BOOKS \d+: (\S+\.cjs) /.exec(line)?.[1])
      .flatMap((chunk) => Object.keys(meta.outputs[`dist/bundle/${chunk}`]?.inputs ?? {}));
    return { result, sources };
  };

  /** books with these arguments: its exit, stdout, stderr (the trace apart), leaves loaded. */
  const help = (args: string[]) => {
    const { result, sources } = traced(args);
    const leaves = sources.filter((source) => source.startsWith('src/cli/commands/'));
    const stderr = result.stderr
      .split('\n')
      .filter((line) => !line.startsWith('BOOKS '))
      .join('\n');
    return {
      section: `$ books ${args.join(' ')}\nexit ${result.status}\n--- stdout\n${result.stdout}--- stderr\n${stderr}`,
      leaves,
    };
  };

  it("lists a group's leaves as their declarations do, loading none of them", () => {
    for (const group of ['', ...Object.keys(GROUPS)]) {
      const args = [...(group ? group.split(' ') : []), '--help'];
      const { section, leaves } = help(args);
      expectGolden(`cli/${group ? group.split(' ').join('-') : 'books'}.help.txt`, section);
      // A group that is a leaf too (`close`) shows its own help, from its declaration.
      expect(leaves, `books ${args.join(' ')}`).toEqual([]);
    }
  });

  it("shows a leaf's own help as the leaf does, loading none of them", () => {
    for (const key of Object.keys(LEAVES)) {
      const words = key.split(' ');
      const { section, leaves } = help([...words, '--help']);
      // The leaf's golden starts with its help, then its usage errors.
      const golden = readFileSync(path.join(GOLDEN_DIR, `cli/${words.join('-')}.txt`), 'utf8');
      expect(`${golden}\n`.startsWith(`${section}\n$ books `), `books ${key} --help`).toBe(true);
      expect(leaves, `books ${key} --help`).toEqual([]);
    }
  });

  it("completes a command and a leaf's options without loading a leaf or the platform's names", () => {
    for (const [line, expected] of [
      ['books coa ', 'list'],
      ['books coa list --', '--tree'],
    ] as const) {
      const { result, sources } = traced(['__complete', 'bash', '--line', line]);
      expect(result.stdout.split('\n'), line).toContain(expected);
      expect(
        sources.filter(
          (source) =>
            source.startsWith('src/cli/commands/') || source === 'src/cli/completion/names.ts',
        ),
        line,
      ).toEqual([]);
    }
  });

  it("loads the validators of the routes a command calls, no other route's", () => {
    // `workspace list` calls GET /platform/v1/workspaces, whose query string is its one schema.
    const { result, sources } = traced(['workspace', 'list'], 'books,module');
    expect(result.status, result.stderr).toBe(0);
    const validators = sources.filter((source) => source.startsWith('books-validators:'));
    expect(validators).toHaveLength(1);
    expect(validators[0]).toMatch(/^books-validators:validator-text-/);
    // The written validator is the one used: no schema compiled, so ajv is never loaded.
    expect(result.stderr).toMatch(/Module\._load REQUEST/);
    expect(result.stderr).not.toMatch(/Module\._load REQUEST ajv\b/);
  });
});
