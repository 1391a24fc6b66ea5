import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, chooseNewEntity, runBooks, temporaryHome } from '../helpers/cli.js';

/**
 * The pager, as at a terminal: the built binary run under a pseudo-terminal (`script`), with
 * PAGER a command that records what it is given.
 */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('long output at a terminal goes through the pager', () => {
  const home = temporaryHome();
  const paged = path.join(home.home, 'paged.txt');
  const errors = path.join(home.home, 'stderr.txt');
  const recorder = `cat > '${paged}'`;

  beforeAll(async () => {
    for (const args of chooseNewEntity('Pager Books', 'Pager Co')) {
      expect((await runBooks(args, home.env)).code).toBe(0);
    }
    // More accounts than a screen's lines; and entries for a general ledger.
    const chart = ['code,name,type', '1000,Checking,Cash', '4000,Sales,Income'];
    for (let i = 1; i <= 60; i += 1) chart.push(`${6000 + i},Expense ${i},Operating Expenses`);
    const chartFile = path.join(home.home, 'chart.csv');
    writeFileSync(chartFile, `${chart.join('\n')}\n`);
    expect((await runBooks(['coa', 'import', chartFile, '--renumber'], home.env)).code).toBe(0);
    const ledger = ['date,entry,account,debit,credit'];
    for (let i = 1; i <= 60; i += 1) {
      ledger.push(`2026-02-${String((i % 28) + 1).padStart(2, '0')},${i},Checking,${i}.00,`);
      ledger.push(`2026-02-${String((i % 28) + 1).padStart(2, '0')},${i},Sales,,${i}.00`);
    }
    const ledgerFile = path.join(home.home, 'ledger.csv');
    writeFileSync(ledgerFile, `${ledger.join('\n')}\n`);
    expect((await runBooks(['je', 'import', ledgerFile], home.env)).code).toBe(0);
  }, 60_000);
  afterAll(() => home.cleanup());

  /** `books ARGS` under a pseudo-terminal (stderr to a file); what the terminal showed. */
  const onTerminal = (args: string, env: NodeJS.ProcessEnv, input?: string) => {
    rmSync(paged, { force: true });
    rmSync(errors, { force: true });
    // With input to answer a prompt, stderr stays on the terminal (where prompts are asked).
    const command = `stty cols 120; node '${BOOKS_BIN}' ${args}${input === undefined ? ` 2>'${errors}'` : ''}`;
    const result = spawnSync('script', ['-qec', command, '/dev/null'], {
      env,
      input: input ?? '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    return {
      code: result.status,
      terminal: result.stdout,
      stderr: existsSync(errors) ? readFileSync(errors, 'utf8') : '',
      paged: existsSync(paged) ? readFileSync(paged, 'utf8') : undefined,
    };
  };

  it('pages a list through PAGER, and nothing of it reaches the terminal otherwise', () => {
    const result = onTerminal('coa list --all', { ...home.env, PAGER: recorder });
    expect(result.code, result.stderr).toBe(0);
    expect(result.paged).toMatch(/│ Code\s+│ Name\s+│/);
    expect(result.paged).toContain('Checking');
    expect(result.terminal).not.toContain('Checking');
  });

  it('prefers BOOKS_PAGER, then the config pager, then PAGER', async () => {
    const ignored = `cat > '${path.join(home.home, 'ignored.txt')}'`;
    const viaBooksPager = onTerminal('coa list', {
      ...home.env,
      BOOKS_PAGER: recorder,
      PAGER: ignored,
    });
    expect(viaBooksPager.paged).toContain('Checking');
    // A config of its own, so that the other tests keep none.
    const env = { ...home.env, XDG_CONFIG_HOME: path.join(home.home, 'other-config') };
    const coaList = "coa list -w 'Pager Books'";
    expect((await runBooks(['config', 'set', 'pager', recorder], env)).code).toBe(0);
    const viaConfig = onTerminal(coaList, { ...env, PAGER: ignored });
    expect(viaConfig.paged).toContain('Checking');
    expect(existsSync(path.join(home.home, 'ignored.txt'))).toBe(false);
    expect((await runBooks(['config', 'set', 'pager', 'never'], env)).code).toBe(0);
    const never = onTerminal(coaList, { ...env, PAGER: recorder });
    expect(never.paged).toBeUndefined();
    expect(never.terminal).toContain('Checking');
  });

  it('never pages with --no-pager, nor when stdout is not a terminal', async () => {
    const noPager = onTerminal('coa list --no-pager', { ...home.env, PAGER: recorder });
    expect(noPager.code).toBe(0);
    expect(noPager.paged).toBeUndefined();
    expect(noPager.terminal).toContain('Checking');
    const piped = await runBooks(['coa', 'list'], { ...home.env, PAGER: recorder });
    expect(piped.code).toBe(0);
    expect(existsSync(paged)).toBe(false);
    expect(piped.stdout).toContain('Checking');
  });

  it('ends quietly, exit 0, when the pager quits early', () => {
    for (const args of [
      'coa list --all',
      'je list --all -o csv',
      'report gl --from 2026-01-01 --to 2026-12-31',
    ]) {
      const result = onTerminal(args, { ...home.env, PAGER: 'head -3' });
      expect(result, args).toMatchObject({ code: 0, stderr: '' });
      expect(result.terminal.trim().split('\n').length, args).toBeLessThanOrEqual(3);
    }
  });

  it('never pages a prompt: a question asked before the output is on the terminal', () => {
    const result = onTerminal(
      'sandbox webhook attempts',
      { ...home.env, PAGER: recorder },
      'ep_nope\n',
    );
    expect(result.terminal).toContain('The endpoint id');
    expect(result.paged).toBeUndefined();
  });
});
