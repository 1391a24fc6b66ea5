import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, temporaryHome } from '../helpers/cli.js';

/**
 * `books completion` as a person's shell runs it: the built binary on the PATH as `books`, the
 * scripts loaded by bash, zsh and fish themselves, and names from a real local platform (the
 * embedded one, in a temporary HOME).
 */
const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;

describe('books completion', () => {
  const home = temporaryHome();
  const bin = path.join(home.home, 'bin');
  const env: NodeJS.ProcessEnv = { ...home.env, PATH: `${bin}:${process.env.PATH}` };
  const books = async (...args: string[]) => {
    const result = await runBooks(args, env);
    expect(result.code, result.stderr).toBe(0);
    return result;
  };

  beforeAll(async () => {
    mkdirSync(bin);
    symlinkSync(BOOKS_BIN, path.join(bin, 'books'));
    await books('workspace', 'create', 'Acme: Books');
    await books('workspace', 'create', 'Bayside Dental');
    await books('sandbox', 'entity', 'create', 'Acme Trading', '-w', 'Acme: Books');
    await books('use', '-w', 'Acme: Books', '-e', 'Acme Trading');
    await books('coa', 'create', '--name', 'Petty Cash', '--type', 'Cash');
    await books('coa', 'create', '--name', 'Rent Expense', '--type', 'Operating Expenses');
  }, 60_000);
  afterAll(() => home.cleanup());

  /** What bash offers with the cursor at the end of `line`, through the script it sourced. */
  const bash = (line: string) => {
    const script = [
      'source <(books completion bash)',
      'complete -p books',
      `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}`,
      'read -r -a COMP_WORDS <<< "$COMP_LINE"',
      `COMP_CWORD=$(( \${#COMP_WORDS[@]} - ${line.endsWith(' ') ? 0 : 1} ))`,
      '_books',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const result = spawnSync('bash', ['-c', script], { env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const [registered, ...offered] = result.stdout.split('\n').filter(Boolean);
    expect(registered).toBe('complete -F _books books');
    return offered;
  };

  it('prints a script each shell reads without a syntax error, and says where it goes', async () => {
    const bash = await runBooks(['completion', 'bash'], env);
    expect(bash.stdout).toMatch(/^# books completion for bash/);
    const help = await books('completion', '--help');
    expect(help.stdout).toContain('~/.bashrc');
    expect(help.stdout).toContain('~/.config/fish/completions/books.fish');
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const { stdout } = await books('completion', shell);
      expect(stdout).toContain('books __complete');
      if (!has(shell)) {
        console.warn(`skipped: ${shell} is not installed, so its script is not syntax-checked`);
        continue;
      }
      const file = path.join(home.home, `books.${shell}`);
      writeFileSync(file, stdout);
      const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      expect(check.status, `${shell} -n: ${check.stderr}`).toBe(0);
    }
  });

  it('completes commands, flags and enum values from the registry, in bash', () => {
    expect(bash('books rep')).toEqual(['report']);
    expect(bash('books report ')).toEqual(['pl', 'bs', 'cf', 'tb', 'gl', 'pack']);
    expect(bash('books report pl --com')).toEqual(['--compare']);
    expect(bash('books report pl --compare ')).toEqual(['prior-period', 'prior-year']);
    expect(bash('books report pl --by m')).toEqual(['month']);
    expect(bash('books je import --format ')).toContain('qb-report');
    expect(bash('books completion ')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes workspace, entity and account names from the platform, in bash', () => {
    expect(bash('books -w B')).toEqual(['Bayside\\ Dental']);
    // Bash replaces only what follows the colon (a word break): the rest of the name.
    expect(bash('books -w Acme:')).toEqual(['\\ Books']);
    expect(bash('books coa list -e ')).toEqual(['Acme\\ Trading']);
    expect(bash('books coa get Pe')).toEqual(['Petty\\ Cash']);
    expect(bash('books coa get 100')).toEqual(['1000']);
    expect(bash('books coa get "Rent')).toEqual(['"Rent Expense"']);
    expect(bash('books report gl --account Re')).toEqual(['Rent\\ Expense']);
  });

  it.skipIf(!has('fish'))('completes the same through fish (complete -C)', () => {
    const fish = (line: string) =>
      spawnSync(
        'fish',
        ['-c', `books completion fish | source; complete -C ${JSON.stringify(line)}`],
        {
          env,
          encoding: 'utf8',
        },
      )
        .stdout.split('\n')
        .filter(Boolean);
    expect(fish('books rep')[0]).toMatch(/^report\t/);
    expect(fish('books report pl --compare ')).toEqual(['prior-period', 'prior-year']);
    expect(fish('books -w Bay')[0]).toMatch(/^Bayside Dental\t/);
    expect(fish('books coa get Pett')).toEqual(['Petty Cash\t1000 Cash']);
  });

  it("answers zsh through its script's function and the entry point it calls", async () => {
    const { stdout } = await books('__complete', 'zsh', '--', 'coa', 'get', 'Pe');
    expect(stdout).toBe(':values\nPetty Cash:1000 Cash\n');
    const files = await books('__complete', 'zsh', '--', 'je', 'import', '');
    expect(files.stdout).toBe(':files\n');
    if (!has('zsh')) {
      console.warn('skipped: zsh is not installed, so its completion function is not run');
      return;
    }
    // The function as zsh runs it at a Tab, with zsh's own _describe and _files (interactive
    // widgets) replaced by ones that print what they were given.
    const zsh = (...words: string[]) =>
      spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          [
            'compdef() { :; }',
            '_describe() { local name=$4; print -rl -- "${(@P)name}"; }',
            '_files() { print -r -- "(files $*)"; }',
            'source <(books completion zsh)',
            `words=(books ${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length + 1}`,
            '_books',
          ].join('\n'),
        ],
        { env, encoding: 'utf8' },
      )
        .stdout.split('\n')
        .filter(Boolean);
    expect(zsh('report', 'pl', '--compare', '')).toEqual(['prior-period', 'prior-year']);
    expect(zsh('rep')).toEqual([
      'report:Profit and loss, balance sheet, cash flow, trial balance, general ledger',
    ]);
    expect(zsh('-w', 'Acme')).toEqual([expect.stringMatching(/^Acme\\: Books:[0-9a-f-]{36}$/)]);
    expect(zsh('coa', 'get', 'Ren')).toEqual(['Rent Expense:6000 Operating Expenses']);
    expect(zsh('je', 'import', '')).toEqual(['(files )']);
  });

  it('keeps names a minute in a cache, and asks again once it is stale', async () => {
    expect(bash('books coa get Pe')).toEqual(['Petty\\ Cash']);
    await books('coa', 'create', '--name', 'Petrol', '--type', 'Operating Expenses');
    expect(bash('books coa get Pe')).toEqual(['Petty\\ Cash']);
    const cacheFile = path.join(env.XDG_CACHE_HOME!, 'books', 'completion-names.json');
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, { at: number }>;
    for (const entry of Object.values(cache)) entry.at -= 61_000;
    writeFileSync(cacheFile, JSON.stringify(cache));
    expect(bash('books coa get Pe')).toEqual(['Petty\\ Cash', 'Petrol']);
  });

  describe('a platform that fails', () => {
    let silent: Server;
    let port: number;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      // Accepts connections and never answers.
      silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      port = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it.each([
      ['nobody answers at the address', 'http://127.0.0.1:9'],
      ['the platform never answers (the time limit)', 'silent'],
    ])('completes nothing and prints nothing when %s', async (_, url) => {
      const result = await runBooks(['__complete', 'bash', '--line', 'books -w '], {
        ...env,
        BOOKS_BASE_URL: url === 'silent' ? `http://127.0.0.1:${port}` : url,
        BOOKS_TOKEN: 'books_org_nobody',
        BOOKS_COMPLETION_TIMEOUT_MS: '300',
      });
      expect(result).toMatchObject({ code: 0, stdout: ':values\n', stderr: '' });
    });
  });
});
