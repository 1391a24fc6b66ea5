import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/**
 * `books coa import` is all or nothing (the built binary against books serve): a file with a bad
 * line creates nothing; a run that fails part-way, rerun, writes each account exactly once.
 */
describe('books coa import: all or nothing, and a rerun writes each account once', () => {
  const home = temporaryHome();
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  let entityId: string;
  const file = path.join(home.home, 'chart.csv');
  /** 150 expense accounts: two bulk requests of 100 and 50. */
  const chart = (bad?: { line: number; row: string }) => {
    const rows = ['name,type,group'];
    for (let i = 1; i <= 150; i += 1)
      rows.push(`Expense ${i},Operating Expenses,${i <= 3 ? 'Premises' : ''}`);
    if (bad) rows[bad.line - 1] = bad.row;
    writeFileSync(file, `${rows.join('\n')}\n`);
  };
  const accounts = async () =>
    JSON.parse((await runBooks(['coa', 'list', '--json'], env)).stdout) as { name: string }[];

  beforeAll(async () => {
    server = await serveBooks(home);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '1' };
    for (const args of [
      ['workspace', 'create', 'Acme'],
      ['sandbox', 'entity', 'create', 'North', '-w', 'Acme'],
      ['use', '-w', 'Acme', '-e', 'North'],
      ['group', 'create', '--name', 'Premises', '--type', 'Operating Expenses'],
    ]) {
      const result = await runBooks(args, env);
      expect(result.code, result.stderr).toBe(0);
    }
    entityId = JSON.parse((await runBooks(['sandbox', 'entity', 'get', '--json'], env)).stdout)
      .entity.id;
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('a bad line anywhere: every problem listed with its line, nothing created (exit 3)', async () => {
    const before = (await accounts()).length;
    chart({ line: 120, row: 'Expense 7,Operating Expenses,' });
    const result = await runBooks(['coa', 'import', file], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `${file}: line 120: "Expense 7" is named again (line 8); names are unique in any case`,
    );
    expect(result.stderr).toContain('1 problem; nothing was sent');
    expect((await accounts()).length).toBe(before);

    chart({ line: 5, row: 'Rent,Bogus,' });
    const type = await runBooks(['coa', 'import', file], env);
    expect(type.code).toBe(3);
    expect(type.stderr).toMatch(/line 5: type "Bogus" is not one of Cash, /);
    expect((await accounts()).length).toBe(before);
  }, 60_000);

  it('fails part-way (the platform errs after the first batch commits), then a rerun finishes it', async () => {
    const before = (await accounts()).length;
    chart();
    // The first bulk request commits, and then it and every retry of it answer 500.
    const fault = await server.api('POST', '/sandbox/v1/faults', {
      mode: 'after_commit',
      status: 500,
      count: 6,
      method: 'POST',
      pathPrefix: `/platform/v1/entities/${entityId}/chart-of-accounts/bulk`,
    });
    expect(fault.status).toBe(201);
    const failed = await runBooks(['coa', 'import', file], env);
    expect(failed.code, failed.stderr).toBe(1);
    expect((await accounts()).length).toBe(before + 100);

    const rerun = await runBooks(['coa', 'import', file], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(
      '100 of its 150 accounts are in the chart already, as the file has them: not created again',
    );
    expect(rerun.stderr).toContain('imported 50 accounts from');
    const names = (await accounts()).map((a) => a.name).filter((n) => n.startsWith('Expense '));
    expect(names).toHaveLength(150);
    expect(new Set(names).size).toBe(150);

    // A third run finds all of it: nothing is written.
    const again = await runBooks(['coa', 'import', file], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('150 of its 150 accounts are in the chart already');
    expect(again.stderr).toContain('imported 0 accounts from');
    expect((await accounts()).length).toBe(before + 150);
  }, 60_000);
});
