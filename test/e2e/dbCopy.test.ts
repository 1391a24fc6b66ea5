import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { booksPaths } from '../../src/cli/config/paths.js';
import { freshPostgresDatabase, type TestDatabase } from '../helpers/backend.js';
import { writeGeneratedBooks } from '../helpers/benchBooks.js';
import { runBooks, serveBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';
import { generateLedger } from '../helpers/generatedLedger.js';

type Served = Awaited<ReturnType<typeof serveBooks>>;

async function get(server: Served, url: string) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    headers: { authorization: `Bearer ${SERVE_TOKEN}` },
  });
  expect(response.status, url).toBe(200);
  return response.json() as Promise<any>;
}

/**
 * Every report a firm reads, of every entity of every workspace, by month over the years the
 * books span, on each open ledger: what a move must not change.
 */
async function everyReport(server: Served): Promise<Record<string, unknown>> {
  const reports: Record<string, unknown> = {};
  const workspaces = (await get(server, '/platform/v1/workspaces?limit=100')).data;
  for (const workspace of workspaces) {
    const entities = (
      await get(server, `/sandbox/v1/workspaces/${workspace.id}/entities?limit=100`)
    ).data;
    for (const entity of entities) {
      const bases = entity.accrualLedgerOpen ? ['cash', 'accrual'] : ['cash'];
      for (const basis of bases) {
        for (const report of ['trial-balance', 'profit-and-loss', 'balance-sheet']) {
          const url = `/platform/v1/entities/${entity.id}/reports/${report}?startDate=2020-01-01&endDate=2027-12-31&groupBy=month&ledgerBasis=${basis}`;
          reports[`${entity.name} ${report} ${basis}`] = (await get(server, url)).report;
        }
      }
      // A VAT-registered entity's codes and its return: the firm's filing moves with it.
      const tax = `/sandbox/v1/entities/${entity.id}`;
      const setting = await server.api('GET', `${tax}/tax-setting`);
      if (setting.status === 200) {
        reports[`${entity.name} tax setting`] = setting.body;
        reports[`${entity.name} VAT return 2025-Q4`] = await get(
          server,
          `${tax}/tax-return?startDate=2025-10-01&endDate=2025-12-31&detail=true`,
        );
        reports[`${entity.name} returns filed`] = await get(server, `${tax}/tax-returns`);
      }
    }
  }
  return reports;
}

/**
 * `books db copy` moves a firm from a SQLite file to an empty PostgreSQL database and checks it;
 * here the reports are compared again, through `books serve` on each side.
 */
describe('books db copy --from FILE --to postgres://…', () => {
  let home: ReturnType<typeof temporaryHome>;
  let target: TestDatabase;
  const served: Served[] = [];
  beforeEach(async () => {
    home = temporaryHome();
    target = await freshPostgresDatabase();
  });
  afterEach(async () => {
    await Promise.all(served.splice(0).map((server) => server.stop()));
    await target.drop();
    home.cleanup();
  });

  const copyAndCompare = async (file: string) => {
    const copy = await runBooks(['db', 'copy', '--from', file, '--to', target.url], home.env);
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stderr).toMatch(/books: copied postings: [\d,]+ rows\n/);
    expect(copy.stderr).toMatch(
      /books: checked every table's row count, and the trial balances of \d+ ledgers of \d+ entities: the same on both sides/,
    );
    expect(copy.stderr).not.toContain(':books@'); // no password said
    const before = await serveBooks(home, ['--db', file], { asGiven: true });
    served.push(before);
    const after = await serveBooks(home, ['--db', target.url]);
    served.push(after);
    const expected = await everyReport(before);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    if (file === booksPaths(home.env).platformDatabase)
      expect(Object.keys(expected)).toContain('Harbour Café Ltd VAT return 2025-Q4');
    expect(await everyReport(after)).toEqual(expected);
    return copy;
  };

  it('moves the demo firm: every report of every entity the same on both sides', async () => {
    const demo = await runBooks(['demo'], home.env);
    expect(demo.code, demo.stderr).toBe(0);
    const file = booksPaths(home.env).platformDatabase;
    expect(existsSync(file)).toBe(true);
    await copyAndCompare(file);
  }, 120_000);

  it('moves a generated ledger of 100,000 postings on both ledgers, to the cent', async () => {
    const file = path.join(home.home, 'generated.sqlite');
    const ledger = generateLedger({
      seed: 7,
      count: 28_600,
      firstDay: '2024-01-01',
      days: 730,
      accrualShare: 0.2,
    });
    const { postings } = await writeGeneratedBooks(file, ledger, { accrual: true });
    expect(postings).toBeGreaterThanOrEqual(95_000);
    const copy = await copyAndCompare(file);
    expect(copy.stdout).toMatch(/Trial balances checked\s+2\n/);
  }, 180_000);

  it('refuses a target that holds books, and touches nothing; says plainly what is wrong', async () => {
    const file = path.join(home.home, 'small.sqlite');
    await writeGeneratedBooks(
      file,
      generateLedger({ seed: 1, count: 50, firstDay: '2025-01-01', days: 30 }),
      { accrual: false },
    );
    expect(
      (await runBooks(['db', 'copy', '--from', file, '--to', target.url], home.env)).code,
    ).toBe(0);
    const rows = async () => {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        const { rows: counts } = await client.query(
          'SELECT (SELECT COUNT(*) FROM postings) AS postings, (SELECT COUNT(*) FROM journal_entries) AS entries, (SELECT COUNT(*) FROM organizations) AS organizations',
        );
        return counts[0];
      } finally {
        await client.end();
      }
    };
    const held = await rows();
    const again = await runBooks(['db', 'copy', '--from', file, '--to', target.url], home.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^books: PostgreSQL database \S+ at 127\.0\.0\.1:\d+ already holds books \(1 organizations\): a copy goes only into an empty database; nothing was changed\n$/,
    );
    expect(await rows()).toEqual(held);
    const missing = await runBooks(
      ['db', 'copy', '--from', path.join(home.home, 'none.sqlite'), '--to', target.url],
      home.env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `books: cannot use the database ${path.join(home.home, 'none.sqlite')}: no such SQLite file\n`,
    );
    const notPostgres = await runBooks(['db', 'copy', '--from', file, '--to', file], home.env);
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain(
      'books: --to must be a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)',
    );
  }, 60_000);
});
