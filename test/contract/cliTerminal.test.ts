import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseNewEntity, temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { createEntity } from '../helpers/ledger.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The CLI in-process on a terminal (TTY streams) and piped, against a real server. */
describe('books output on a terminal and in a pipe', () => {
  let server: TestServer;
  let home: ReturnType<typeof temporaryHome>;
  let env: NodeJS.ProcessEnv;
  let entityId: string;
  let workspaceId: string;

  beforeAll(async () => {
    server = await startServer();
    home = temporaryHome();
    const books = await createEntity(server, { name: 'Terminal Books' });
    const cash = await books.account('Checking', 'Cash');
    const sales = await books.account('Sales', 'Income');
    const rent = await books.account('Rent', 'Operating Expenses');
    await books.post(books.entry('2026-01-05', cash.id, sales.id, 1234567.89));
    await books.post(books.entry('2026-02-01', rent.id, cash.id, 2500000));
    env = { ...home.env, BOOKS_BASE_URL: server.baseUrl, BOOKS_TOKEN: server.orgToken };
    entityId = books.entityId;
    workspaceId = books.workspaceId;
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  const pl = ['report', 'pl', '--from', '2026-01-01', '--to', '2026-02-28', '--by', 'month'];

  it('renders a statement on a terminal: a title, compact sections, thousands separators, negatives in parentheses', async () => {
    const result = await runCli([...pl, '-e', entityId], { env, tty: true });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(
      'Main Street Bakery: Profit and Loss, 2026-01-01 to 2026-02-28, cash basis',
    );
    expect(result.stdout).not.toMatch(/[┌│─]/);
    expect(result.stdout).toMatch(
      /\nNet Income\s+1,234,567\.89\s+\(2,500,000\.00\)\s+\(1,265,432\.11\)\n/,
    );
    expect(result.stdout).toMatch(/\n {2}4000 Sales\s+1,234,567\.89\s+0\.00\s+1,234,567\.89\n/);
    // No color without asking for it... and none with NO_COLOR.
    const noColor = await runCli([...pl, '-e', entityId], {
      env: { ...env, NO_COLOR: '1' },
      tty: true,
    });
    expect(noColor.stdout).not.toMatch(/\[\d+m/);
  });

  it('prints plain, stable, tab-separated text in a pipe', async () => {
    const result = await runCli([...pl, '-e', entityId], { env, tty: false });
    expect(result.stdout).not.toMatch(/[┌│]|\[\d+m/);
    expect(result.stdout).toContain('Net Income\t1234567.89\t-2500000.00\t-1265432.11\n');
  });

  it('lists as a table on a terminal and as tab-separated lines in a pipe', async () => {
    const tty = await runCli(['workspace', 'list'], { env, tty: true });
    expect(tty.stdout).toMatch(/│ ID\s+│ Name\s+│ Timezone\s+│ Created\s+│/);
    expect(tty.stdout).toContain('Terminal Books');
    const piped = await runCli(['workspace', 'list'], { env, tty: false });
    expect(piped.stdout.split('\n')[0]).toBe('ID\tName\tTimezone\tCreated');
    const json = await runCli(['workspace', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ name: 'Terminal Books', timezone: 'America/Los_Angeles' }),
    ]);
    const csv = await runCli(['workspace', 'list', '--output', 'csv'], { env });
    expect(csv.stdout.split('\n')[0]).toBe('ID,Name,Timezone,Created');
  });

  it('says which workspace and entity a write touched, on stderr', async () => {
    const result = await runCli(
      ['coa', 'create', '--name', 'Savings', '--type', 'Cash', '-e', entityId],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `books: workspace "Terminal Books" (${workspaceId}), entity "Main Street Bakery" (${entityId}): created account 1001 Savings\n`,
    );
    expect(result.stdout).toContain('code      1001');
  });

  it('rejects a bad --output at once', async () => {
    const result = await runCli(['workspace', 'list', '--output', 'xml'], { env });
    expect(result).toMatchObject({
      code: 2,
      stderr: 'books: --output must be table, json, csv or tsv, not "xml"\n',
    });
  });

  it.each([
    [['coa', 'list'], /│ Code\s+│ Name\s+│/],
    [['je', 'list'], /│ Date\s+│ Memo\s+│ Lines │\s+Amount │/],
    [['class', 'list'], /│ Label │ ID │ Parent │/],
    [['rule', 'list'], /│ # │ When │ Then │ Enabled │ ID │/],
    [['group', 'list'], /│ Name │ Type │ ID │/],
    [['sandbox', 'entity', 'get'], /^id\s+[0-9a-f-]{36}\nname\s+Main Street Bakery/],
    [
      ['report', 'gl', '--from', '2026-01-01', '--to', '2026-02-28'],
      /\n1000 Checking\n {2}\s+Opening balance\s+0\.00\n {2}2026-01-05 .*1,234,567\.89\s+1,234,567\.89\n/,
    ],
    [
      ['report', 'tb', '--from', '2026-01-01', '--to', '2026-02-28'],
      /^Main Street Bakery: Trial Balance, 2026-01-01 to 2026-02-28, cash basis\n\n/,
    ],
    [['config', 'path'], /^config\s+\//],
    [['log', '--limit', '2'], /│ At\s+│ Method │/],
  ])('%j renders for a person on a terminal', async (args, pattern) => {
    const result = await runCli([...args, '-e', entityId, '-w', 'Terminal Books'], {
      env,
      tty: true,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(pattern);
  });
});

describe('an import on a terminal (the embedded platform)', () => {
  it('shows its progress, entries done of all, entries/s and an ETA, and none in a pipe', async () => {
    const home = temporaryHome();
    try {
      for (const args of chooseNewEntity('Progress', 'Progress Co')) {
        expect((await runCli(args, { env: home.env })).code).toBe(0);
      }
      const file = path.join(home.home, 'ledger.csv');
      const rows = Array.from(
        { length: 250 },
        (_, i) => `2025-06-01,Checking,Cash,${i + 1}\n2025-06-01,Sales,Income,-${i + 1}\n`,
      );
      writeFileSync(file, `date,account,account_type,amount\n${rows.join('')}`);
      const args = ['je', 'import', file, '--create-missing-accounts'];

      const onTerminal = await runCli(args, { env: home.env, tty: true });
      expect(onTerminal.code, onTerminal.stderr).toBe(0);
      expect(onTerminal.stderr).toMatch(
        /\r {2}(100|200)\/250 entries {2}\d+ entries\/s {2}ETA \d+s/,
      );
      expect(onTerminal.stderr).toMatch(/\r {2}250\/250 entries {2}\d+ entries\/s {2}ETA 0s/);

      const piped = await runCli(args, { env: home.env, tty: false });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).not.toMatch(/\r|ETA/);
    } finally {
      home.cleanup();
    }
  });
});
