import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/** `books serve` in its own process, for the CLI to talk to over loopback. */
const serve = (home: ReturnType<typeof temporaryHome>, ...flags: string[]) =>
  serveBooks(home, ['--memory', ...flags]);

/** The main flow every target must support: books from nothing to month-end reports. */
async function keepTheBooks(env: NodeJS.ProcessEnv) {
  const ok = async (...args: string[]) => {
    const result = await runBooks(args, env);
    expect(result.code, `books ${args.join(' ')}\n${result.stderr}`).toBe(0);
    return result;
  };
  const created = await ok(
    'workspace',
    'create',
    'Blue Bottle Books',
    '--timezone',
    'America/New_York',
  );
  expect(created.stdout).toContain('name      Blue Bottle Books');
  expect(created.stderr).toMatch(/books: created workspace "Blue Bottle Books" \(/);
  await ok(
    'sandbox',
    'entity',
    'create',
    'Main Street Bakery',
    '--start-date',
    '2026-01-01',
    '-w',
    'Blue Bottle Books',
  );
  await ok('use', '--workspace', 'Blue Bottle Books', '--entity', 'Main Street Bakery');
  for (const [name, type] of [
    ['Checking', 'Cash'],
    ['Sales', 'Income'],
    ['Rent', 'Operating Expenses'],
  ]) {
    const account = await ok('coa', 'create', '--name', name!, '--type', type!);
    expect(account.stderr).toMatch(/created account \d{4} /);
  }
  await ok(
    'je',
    'create',
    '--date',
    '2026-01-05',
    '--debit',
    'Checking=5,000.00',
    '--credit',
    'Sales=5000',
    '--memo',
    'January sales',
  );
  await ok(
    'je',
    'create',
    '--date',
    '2026-02-01',
    '--debit',
    'Rent=1500',
    '--credit',
    '1000=1500',
    '--memo',
    'February rent',
  );
  await ok(
    'je',
    'create',
    '--date',
    '2026-03-03',
    '--debit',
    'Checking=250.25',
    '--credit',
    'Sales=250.25',
  );

  const list = await ok('je', 'list');
  expect(list.stdout.split('\n')[0]).toBe('Date\tMemo\tLines\tAmount\tSource\tID');
  expect(
    list.stdout
      .split('\n')
      .slice(1, 4)
      .map((l) => l.split('\t').slice(0, 4)),
  ).toEqual([
    ['2026-03-03', '', '2', '250.25'],
    ['2026-02-01', 'February rent', '2', '1500.00'],
    ['2026-01-05', 'January sales', '2', '5000.00'],
  ]);

  const range = ['--from', '2026-01-01', '--to', '2026-03-31'];
  const table = await ok('report', 'pl', ...range, '--by', 'month');
  // Piped: tidy records, tab-separated.
  expect(table.stdout).toContain(
    'section\taccount_code\taccount_name\t2026-01-01..2026-01-31\t2026-02-01..2026-02-28\t2026-03-01..2026-03-31\t2026-01-01..2026-03-31\n',
  );
  expect(table.stdout).toContain('income\t4000\tSales\t5000.00\t0.00\t250.25\t5250.25\n');
  expect(table.stdout).toContain('netIncome\t\tNet Income\t5000.00\t-1500.00\t250.25\t3750.25\n');

  const csv = await ok('report', 'pl', ...range, '--by', 'month', '--output', 'csv');
  expect(csv.stdout.split('\n')[0]).toBe(
    'section,account_code,account_name,2026-01-01..2026-01-31,2026-02-01..2026-02-28,2026-03-01..2026-03-31,2026-01-01..2026-03-31',
  );
  expect(csv.stdout).toContain('netIncome,,Net Income,5000.00,-1500.00,250.25,3750.25');

  const json = await ok('report', 'pl', ...range, '--json');
  const report = JSON.parse(json.stdout).report;
  expect(report.sections.find((s: any) => s.section === 'netIncome').total).toBe(3750.25);

  const bs = await ok('report', 'bs', ...range);
  expect(bs.stdout).toContain('assets\t1000\tChecking\t3750.25\n');
  expect(bs.stdout).toContain('liabilitiesAndEquity\t\tTotal Liabilities and Equity\t3750.25\n');
  const cf = await ok('report', 'cf', ...range, '--output', 'csv');
  expect(cf.stdout).toContain('summary,,Ending Cash,3750.25');
  const tb = await ok('report', 'tb', ...range, '--json');
  expect(JSON.parse(tb.stdout).report.totals).toEqual({ debit: 5250.25, credit: 5250.25 });
  const gl = await ok('report', 'gl', ...range, '--account', 'Checking');
  expect(gl.stdout).toContain('1000\tChecking\t2026-02-01\tFebruary rent\t\t1500.00\t3500.00\n');
  expect(gl.stdout).toContain('1000\tChecking\t\tClosing balance\t\t\t3750.25\n');

  const log = await ok('log', '--limit', '50');
  expect(log.stdout).toMatch(
    /POST\t\/platform\/v1\/entities\/[0-9a-f-]+\/journal-entries\t201\t[0-9a-f-]{36}\t[0-9a-f-]{36}/,
  );
}

describe('books against `books serve` on a loopback port', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    home = temporaryHome();
    server = await serve(home);
  });
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('keeps the books: workspace, entity, chart, entries, every report as table, CSV and JSON', async () => {
    await keepTheBooks(server.env);
  }, 60_000);

  it('exits 5 for what is not found, 4 for a bad token, 1 for a refusal, 2 for usage', async () => {
    const missing = await runBooks(
      ['workspace', 'get', '00000000-0000-4000-8000-000000000000'],
      server.env,
    );
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^books: workspace not found \(trace [0-9a-f-]{36}\)\n$/);
    const badToken = await runBooks(['workspace', 'list'], { ...server.env, BOOKS_TOKEN: 'wrong' });
    expect(badToken.code).toBe(4);
    expect(badToken.stderr).toContain('books: invalid access token');
    const refused = await runBooks(['workspace', 'create', ' '], server.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('books: name must not be empty (trace ');
    const json = await runBooks(
      ['workspace', 'get', '00000000-0000-4000-8000-000000000000', '--json'],
      server.env,
    );
    expect(JSON.parse(json.stderr)).toEqual({
      error: { status: 404, message: 'workspace not found', traceId: expect.any(String) },
    });
    const usage = await runBooks(['report', 'pl', '--json'], server.env);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr)).toEqual({
      error: {
        status: null,
        message: expect.stringContaining('--from and --to are required'),
        traceId: null,
      },
    });
  });

  it('without a terminal, a missing argument is a usage error at once (exit 2), never a prompt', async () => {
    const started = Date.now();
    const result = await runBooks(['workspace', 'create'], server.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "books: missing required argument 'name'\n(run with --help for usage)\n",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const destructive = await runBooks(['workspace', 'delete', 'Blue Bottle Books'], server.env);
    expect(destructive.code).toBe(2);
    expect(destructive.stderr).toContain('Not on a terminal: pass --yes to confirm.');
  });

  it('an after_commit fault (503, then a dropped connection) is retried with the same key: created once', async () => {
    for (const status of [503, 0]) {
      const name = `Retried ${status}`;
      const fault = await server.api('POST', '/sandbox/v1/faults', {
        mode: 'after_commit',
        status,
        count: 1,
        method: 'POST',
        pathPrefix: '/platform/v1/workspaces',
      });
      expect(fault.status).toBe(201);
      const result = await runBooks(['workspace', 'create', name], {
        ...server.env,
        BOOKS_RETRY_BASE_MS: '10',
      });
      expect(result.code, result.stderr).toBe(0);
      const all = (await server.api('GET', '/platform/v1/workspaces?limit=100')).body.data;
      expect(all.filter((w: any) => w.name === name)).toHaveLength(1);
      const log = await runBooks(['log', '--limit', '2', '--json'], server.env);
      const [first, second] = JSON.parse(log.stdout);
      expect(first.status).toBe(status === 0 ? null : 503);
      expect(second.status).toBe(201);
      expect(second.idempotencyKey).toBe(first.idempotencyKey);
    }
  });

  it('exits 7 when the retries run out', async () => {
    await server.api('POST', '/sandbox/v1/faults', {
      mode: 'reject',
      status: 429,
      count: 100,
      method: 'GET',
      // Retries at once (its base delay 10 ms): five of a second's Retry-After prove nothing more.
      retryAfter: 0,
    });
    const result = await runBooks(['workspace', 'list'], {
      ...server.env,
      BOOKS_RETRY_BASE_MS: '10',
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('books: injected fault: 429');
    // The faults this command left unused would meet the next test's requests.
    await server.api('DELETE', '/sandbox/v1/faults');
  }, 60_000);
});

describe('books and the rate limit', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeEach(async () => {
    home = temporaryHome();
    server = await serve(home, '--rate-limit', '1');
  });
  afterEach(async () => {
    await server.stop();
    home.cleanup();
  });

  it('a 429 storm completes by retrying (Retry-After honoured), each write exactly once', async () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F'];
    const results = await Promise.all(
      names.map((n) => runBooks(['workspace', 'create', `Storm ${n}`], server.env)),
    );
    results.forEach((r) => expect(r.code, r.stderr).toBe(0));
    const log = await runBooks(['log', '--limit', '100', '--json'], server.env);
    expect(JSON.parse(log.stdout).some((r: any) => r.status === 429)).toBe(true);
    let listed = await server.api('GET', '/platform/v1/workspaces?limit=100');
    while (listed.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      listed = await server.api('GET', '/platform/v1/workspaces?limit=100');
    }
    expect(listed.body.data.map((w: any) => w.name).sort()).toEqual(names.map((n) => `Storm ${n}`));
  }, 60_000);
});

describe('books on the embedded local platform (no server, no network port)', () => {
  let home: ReturnType<typeof temporaryHome>;
  beforeAll(() => {
    home = temporaryHome();
  });
  afterAll(() => home.cleanup());

  it('keeps the books in the user data directory, saying so once with --verbose', async () => {
    await keepTheBooks(home.env);
    const result = await runBooks(['config', 'path'], home.env);
    expect(result.stdout).toContain(
      `local platform  ${home.home}/.local/share/books/platform.sqlite`,
    );
    const listed = await runBooks(['workspace', 'list'], home.env);
    expect(listed.stderr).not.toContain('using the local platform');
    const verbose = await runBooks(['workspace', 'list', '--verbose'], home.env);
    expect(verbose.stderr.match(/using the local platform/g)).toHaveLength(1);
  }, 60_000);
});

describe('books je import (the built binary against books serve)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serve>>;
  let file: string;
  const ENTRIES = 350;

  beforeAll(async () => {
    home = temporaryHome();
    server = await serve(home);
    const { writeFileSync } = await import('node:fs');
    file = `${home.home}/ledger.csv`;
    const rows = ['Entry,Date,Account,Account Type,Debit,Credit,Description'];
    for (let i = 1; i <= ENTRIES; i += 1) {
      const day = `2025-${String((Math.floor(i / 30) % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
      const amount = `${Math.floor(i * 37.5)}.${String(i % 100).padStart(2, '0')}`;
      rows.push(
        `E${i},${day},Checking,Cash,"${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}",,Deposit ${i}`,
      );
      rows.push(`E${i},${day},Sales,Income,,${amount},Deposit ${i}`);
    }
    writeFileSync(file, rows.join('\n') + '\n');
    const ok = async (...args: string[]) => expect((await runBooks(args, server.env)).code).toBe(0);
    await ok('workspace', 'create', 'Imports');
    await ok('sandbox', 'entity', 'create', 'Importer', '-w', 'Imports');
    await ok('use', '-w', 'Imports', '-e', 'Importer');
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  const entryCount = async () => {
    const result = await runBooks(['je', 'list', '--all', '--json'], server.env);
    return JSON.parse(result.stdout).length as number;
  };

  it('refuses an invalid file with exit 3, every problem by line, and nothing on the platform', async () => {
    const { writeFileSync } = await import('node:fs');
    const bad = `${home.home}/bad.csv`;
    writeFileSync(
      bad,
      'date,account,amount\n2025-01-01,Checking,10\n2025-01-01,Sales,-9.99\n2025-02-30,Sales,1\n',
    );
    const result = await runBooks(['je', 'import', bad], server.env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `${bad}:2: lines 2–3 of 2025-01-01 do not balance: debits 10.00, credits 9.99`,
    );
    expect(result.stderr).toContain(`${bad}:4: date "2025-02-30" is not a date (YYYY-MM-DD)`);
    expect(result.stderr).toContain('nothing was sent');
    expect(await entryCount()).toBe(0);
  });

  it('imports through after_commit faults (503, dropped connection) exactly once, reconciles, and a rerun sends nothing', async () => {
    const entityId = JSON.parse(
      (await runBooks(['sandbox', 'entity', 'get', '--json'], server.env)).stdout,
    ).entity.id;
    for (const status of [503, 0]) {
      await server.api('POST', '/sandbox/v1/faults', {
        mode: 'after_commit',
        status,
        count: 1,
        method: 'POST',
        pathPrefix: `/platform/v1/entities/${entityId}/journal-entries/bulk`,
      });
    }
    const receipt = `${home.home}/receipt.csv`;
    const result = await runBooks(
      [
        'je',
        'import',
        file,
        '--create-missing-accounts',
        '--receipt',
        receipt,
        '--concurrency',
        '2',
      ],
      {
        ...server.env,
        BOOKS_RETRY_BASE_MS: '10',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${ENTRIES} entries of ledger.csv are in the cash ledger`);
    expect(result.stderr).toContain(
      'reconciled 2 accounts with the entries this import posted, to the cent',
    );
    expect(await entryCount()).toBe(ENTRIES);
    const { readFileSync } = await import('node:fs');
    const receiptLines = readFileSync(receipt, 'utf8').trim().split('\n');
    expect(receiptLines[0]).toBe('line,entry,journal_entry_id');
    expect(receiptLines).toHaveLength(ENTRIES + 1);
    expect(receiptLines[1]).toMatch(/^2,E1,[0-9a-f-]{36}$/);
    expect(new Set(receiptLines.slice(1).map((l) => l.split(',')[2])).size).toBe(ENTRIES);

    const log = JSON.parse(
      (await runBooks(['log', '--limit', '200', '--json'], server.env)).stdout,
    );
    const bulk = log.filter((r: any) => r.path.endsWith('/journal-entries/bulk'));
    expect(bulk.filter((r: any) => r.status === 201)).toHaveLength(4);
    expect(bulk.some((r: any) => r.status === 503 || r.status === null)).toBe(true);

    const rerun = await runBooks(['je', 'import', file], server.env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await entryCount()).toBe(ENTRIES);
    const after = JSON.parse(
      (await runBooks(['log', '--limit', '400', '--json'], server.env)).stdout,
    );
    expect(after.filter((r: any) => r.path.endsWith('/journal-entries/bulk')).length).toBe(
      bulk.length,
    );
  }, 120_000);

  it('a piped je list prints every entry, and says so when --limit cuts it', async () => {
    const piped = await runBooks(['je', 'list'], server.env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.trim().split('\n')).toHaveLength(ENTRIES + 1);
    expect(piped.stderr).not.toContain('showing');
    const cut = await runBooks(['je', 'list', '--limit', '30'], server.env);
    expect(cut.stdout.trim().split('\n')).toHaveLength(31);
    expect(cut.stderr).toContain(`books: showing 30 of ${ENTRIES}; use --all for every one\n`);
  }, 60_000);
});
