import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, temporaryHome } from '../helpers/cli.js';

/**
 * Questions at a real terminal: the built binary on a pseudo-terminal made by util-linux's
 * `script`, typed at as a person would (each answer sent once its question shows).
 */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasScript)
  console.log('skipped: the pseudo-terminal tests need util-linux `script` on the PATH');

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** Runs books on a pseudo-terminal; each [question, keys] pair types `keys` once `question` shows. */
function onTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  dialogue: [question: string, keys: string][],
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BOOKS_BIN, ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...env, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let next = 0;
  const answer = () => {
    const step = dialogue[next];
    if (step && screen.includes(step[0])) {
      next += 1;
      child.stdin.write(step[1]);
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    answer();
  });
  child.stderr.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, screen });
    });
  });
}

describe.skipIf(!hasScript)('prompts on a terminal (a pseudo-terminal)', () => {
  const home = temporaryHome();
  const workspaces = async () =>
    JSON.parse((await runBooks(['workspace', 'list', '--json'], home.env)).stdout).map(
      (w: { name: string }) => w.name,
    );
  beforeAll(async () => {
    expect((await runBooks(['workspace', 'create', 'Acme'], home.env)).code).toBe(0);
  });
  afterAll(() => home.cleanup());

  it('asks for a missing argument, and uses the answer', async () => {
    const created = await onTerminal(['workspace', 'create'], home.env, [
      ['Workspace name', 'Birch\r'],
    ]);
    expect(created.code, created.screen).toBe(0);
    expect(await workspaces()).toEqual(['Acme', 'Birch']);

    // An argument that had no question of its own is asked by its description.
    const shown = await onTerminal(['workspace', 'get'], home.env, [
      ['Workspace (by id or name)', 'Birch\r'],
    ]);
    expect(shown.code, shown.screen).toBe(0);
    expect(shown.screen).toMatch(/name\s+Birch/);
  }, 60_000);

  it('asks for a missing required option', async () => {
    const merge = await onTerminal(
      ['coa', 'create', '--type', 'Cash', '-w', 'Acme', '-e', 'nowhere'],
      home.env,
      [['(--name)', '\u0003']],
    );
    expect(merge.code, merge.screen).toBe(130);
  }, 60_000);

  it('"no" at a confirmation says cancelled, exits 1 and changes nothing', async () => {
    const no = await onTerminal(['workspace', 'delete', 'Birch'], home.env, [
      ['Delete workspace Birch', 'n\r'],
    ]);
    expect(no.code, no.screen).toBe(1);
    expect(no.screen).toContain('books: cancelled');
    expect(await workspaces()).toEqual(['Acme', 'Birch']);
  }, 60_000);

  it('Ctrl-C at a question exits 130 and changes nothing', async () => {
    const interrupted = await onTerminal(['workspace', 'delete', 'Birch'], home.env, [
      ['Delete workspace Birch', '\u0003'],
    ]);
    expect(interrupted.code, interrupted.screen).toBe(130);
    expect(interrupted.screen).not.toMatch(/\n\s+at /);
    expect(await workspaces()).toEqual(['Acme', 'Birch']);

    const yes = await onTerminal(['workspace', 'delete', 'Birch'], home.env, [
      ['Delete workspace Birch', 'y\r'],
    ]);
    expect(yes.code, yes.screen).toBe(0);
    expect(await workspaces()).toEqual(['Acme']);
  }, 60_000);

  it('without a terminal: a usage error (exit 2), never a question or a hang', async () => {
    const missing = await runBooks(['workspace', 'create'], home.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "books: missing required argument 'name'\n(run with --help for usage)\n",
    );
    const option = await runBooks(['coa', 'create', '--type', 'Cash'], home.env);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("books: required option '--name <name>' not specified");
    const confirm = await runBooks(['workspace', 'delete', 'Acme'], home.env);
    expect(confirm.code).toBe(2);
    expect(confirm.stderr).toContain('Not on a terminal: pass --yes to confirm.');
  }, 60_000);
});
