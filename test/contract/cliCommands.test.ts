import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Every resource command, run in-process (piped) against a real server, in a temporary HOME. */
describe('books resource commands', () => {
  let server: TestServer;
  let home: ReturnType<typeof temporaryHome>;
  let env: NodeJS.ProcessEnv;
  const books = async (...args: string[]) => runCli(args, { env });
  const ok = async (...args: string[]) => {
    const result = await books(...args);
    expect(result.code, `books ${args.join(' ')}\n${result.stderr}`).toBe(0);
    return result;
  };
  const json = async (...args: string[]) => JSON.parse((await ok(...args, '--json')).stdout);

  beforeAll(async () => {
    server = await startServer({ adminToken: 'admin' });
    home = temporaryHome();
    env = { ...home.env, BOOKS_BASE_URL: server.baseUrl, BOOKS_TOKEN: server.orgToken };
    await ok('workspace', 'create', 'Acme');
    await ok(
      'sandbox',
      'entity',
      'create',
      'Acme Retail',
      '--start-date',
      '2026-01-01',
      '-w',
      'Acme',
    );
    await ok('use', '-w', 'Acme', '-e', 'Acme Retail');
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('coa: import, list --tree, rename, move, disable, enable, merge (blockers readable), delete', async () => {
    const csv = path.join(home.home, 'chart.csv');
    writeFileSync(
      csv,
      '\ufeffName;Account_Type;Code\nChecking;Cash;\nOld Checking;Cash;\nSales;Income;\nRent;operating expenses;\n'.replace(
        /;/g,
        ',',
      ),
    );
    const imported = await ok('coa', 'import', csv);
    expect(
      imported.stdout
        .split('\n')
        .slice(1, 5)
        .map((l) => l.split('\t').slice(0, 2)),
    ).toEqual([
      ['1000', 'Checking'],
      ['1001', 'Old Checking'],
      ['4000', 'Sales'],
      ['6000', 'Rent'],
    ]);
    await ok('group', 'create', '--name', 'Banks', '--type', 'cash');
    await ok('coa', 'move', 'Checking', '--group', 'Banks');
    const tree = await ok('coa', 'list', '--tree');
    expect(tree.stdout).toContain('Banks\t1000\tChecking\tCash');
    await ok('coa', 'move', '1000', '--no-group');
    expect((await json('coa', 'get', '1000')).account.groupId).toBeNull();
    await ok('coa', 'rename', 'Rent', 'Shop Rent');
    expect((await json('coa', 'get', '6000')).account.name).toBe('Shop Rent');
    expect((await json('coa', 'disable', 'Shop Rent')).account.isDisabled).toBe(true);
    expect((await json('coa', 'enable', '6000')).account.isDisabled).toBe(false);

    await ok(
      'je',
      'create',
      '--date',
      '2026-01-10',
      '--debit',
      'Old Checking=25',
      '--credit',
      'Sales=25',
    );
    await ok('sandbox', 'entity', 'lock', '--date', '2026-01-31');
    const blocked = await books('coa', 'merge', 'Old Checking', 'Checking', '--yes');
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(
      /books: the merge is blocked: locked_period \(trace [0-9a-f-]{36}\)\n {2}- locked_period: the source has postings dated on or before the lock date 2026-01-31\n/,
    );
    await ok('sandbox', 'entity', 'lock', '--date', 'none');
    const merged = await ok('coa', 'merge', 'Old Checking', 'Checking', '--yes');
    expect(merged.stderr).toContain('merged Old Checking into 1000 Checking');
    const refused = await books('coa', 'delete', 'Checking', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('account 1000 Checking has postings; archive it instead');
    await ok('coa', 'create', '--name', 'Spare', '--type', 'Cash');
    await ok('coa', 'delete', 'Spare', '--yes');
    expect((await books('coa', 'get', 'Spare')).code).toBe(5);
  });

  it('coa import: an invalid file is exit 3 with every problem by line, and nothing is sent', async () => {
    const before = (await json('coa', 'list')).length;
    const bad = path.join(home.home, 'bad.csv');
    writeFileSync(bad, 'name,type\n,Cash\nMisc,Bogus\nFine,Cash\n');
    const result = await books('coa', 'import', bad);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${bad}: line 2: no name`);
    expect(result.stderr).toContain(`${bad}: line 3: type "Bogus" is not one of Cash`);
    expect(result.stderr).toContain('2 problems; nothing was sent');
    expect((await json('coa', 'list')).length).toBe(before);
  });

  it('class: create (nested), list --tree, get, rename, delete', async () => {
    await ok('class', 'create', 'Region');
    await ok('class', 'create', 'West', '--parent', 'Region');
    await ok('class', 'create', 'East', '--parent', 'Region');
    const tree = await ok('class', 'list', '--tree');
    expect(
      tree.stdout
        .split('\n')
        .slice(1, 4)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['Region', '  East', '  West']);
    await ok('class', 'rename', 'East', 'Northeast');
    expect((await json('class', 'get', 'Northeast')).class.label).toBe('Northeast');
    const duplicate = await books('class', 'create', 'west', '--parent', 'Region');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('a sibling class is already labelled "west"');
    await ok('class', 'delete', 'Region', '--yes');
    expect(await json('class', 'list')).toEqual([]);
  });

  it('rule: --when/--then with accounts and classes by name; enable, disable, update, delete', async () => {
    await ok('class', 'create', 'Travel');
    const created = await json(
      'rule',
      'create',
      '--when',
      'description_contains=uber,lyft',
      '--when',
      'direction_is=outflow',
      '--then',
      'account_id=Shop Rent',
      '--then',
      'class_id=Travel',
      '--note',
      'rides',
    );
    const rent = (await json('coa', 'get', 'Shop Rent')).account.id;
    expect(created.rule).toMatchObject({
      conditions: [
        { conditionType: 'description_contains', value: ['uber', 'lyft'] },
        { conditionType: 'direction_is', value: ['outflow'] },
      ],
      actions: [
        { actionType: 'account_id', value: rent },
        { actionType: 'class_id', value: expect.any(String) },
      ],
      note: 'rides',
    });
    const id = created.rule.id;
    expect((await json('rule', 'disable', id)).rule.isDisabled).toBe(true);
    expect((await json('rule', 'enable', id)).rule.isDisabled).toBe(false);
    const updated = await json(
      'rule',
      'update',
      id,
      '--when',
      'amount_greater_than=100',
      '--clear-note',
    );
    expect(updated.rule).toMatchObject({
      conditions: [{ conditionType: 'amount_greater_than', value: ['100'] }],
      note: null,
    });
    const list = await ok('rule', 'list');
    expect(list.stdout).toContain('amount_greater_than=100');
    const usage = await books(
      'rule',
      'create',
      '--when',
      'memo_is=x',
      '--then',
      'account_id=Sales',
    );
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain(
      '--when takes TYPE=VALUE[,VALUE]... with TYPE one of description_is',
    );
    await ok('rule', 'delete', id, '--yes');
    expect((await books('rule', 'get', id)).code).toBe(5);
  });

  it('group: create, list --tree, update, delete', async () => {
    await ok('group', 'create', '--name', 'Expenses', '--type', 'Operating Expenses');
    await ok(
      'group',
      'create',
      '--name',
      'Premises',
      '--type',
      'Operating Expenses',
      '--parent',
      'Expenses',
    );
    const tree = await ok('group', 'list', '--tree');
    expect(tree.stdout).toContain('Expenses\tOperating Expenses');
    expect(tree.stdout).toContain('  Premises\tOperating Expenses');
    expect(
      (await json('group', 'update', 'Premises', '--top', '--name', 'Property')).group,
    ).toMatchObject({ name: 'Property', parentGroupId: null });
    await ok('group', 'delete', 'Expenses', '--yes');
    expect((await books('group', 'get', 'Expenses')).code).toBe(5);
  });

  it('je: get, list filters, delete', async () => {
    const created = await json(
      'je',
      'create',
      '--date',
      '2026-02-14',
      '--debit',
      'Shop Rent=800',
      '--credit',
      'Checking=800',
      '--memo',
      'Feb rent',
    );
    const id = created.journalEntry.id;
    const moved = await json(
      'je',
      'update',
      id,
      '--date',
      '2026-02-15',
      '--memo',
      'Feb rent (moved)',
    );
    expect(moved.journalEntry).toMatchObject({ dateOnly: '2026-02-15', memo: 'Feb rent (moved)' });
    const relined = await json(
      'je',
      'update',
      id,
      '--debit',
      'Shop Rent=800',
      '--credit',
      'Checking=700',
      '--credit',
      'Sales=100',
      '--clear-memo',
    );
    expect(
      relined.journalEntry.lines.map((l: any) => [l.accountName, l.debitAmount, l.creditAmount]),
    ).toEqual([
      ['Shop Rent', 800, null],
      ['Checking', null, 700],
      ['Sales', null, 100],
    ]);
    expect(relined.journalEntry.memo).toBeNull();
    expect((await books('je', 'update', id)).code).toBe(2);
    await ok('je', 'update', id, '--memo', 'Feb rent');
    const got = await ok('je', 'get', id);
    expect(got.stdout).toContain('line 1  6000 Shop Rent  Dr 800.00');
    const february = await json('je', 'list', '--from', '2026-02-01', '--to', '2026-02-28');
    expect(february.map((e: any) => e.id)).toEqual([id]);
    await ok('je', 'delete', id, '--yes');
    expect((await books('je', 'get', id)).code).toBe(5);
  });

  it('sandbox: entity get, update, open-accrual; org create with the admin token', async () => {
    expect((await json('sandbox', 'entity', 'get')).entity.name).toBe('Acme Retail');
    expect(
      (
        await json(
          'sandbox',
          'entity',
          'update',
          '--name',
          'Acme Stores',
          '--start-date',
          '2025-07-01',
        )
      ).entity,
    ).toMatchObject({
      name: 'Acme Stores',
      bookkeepingStartDate: '2025-07-01',
    });
    expect((await json('sandbox', 'entity', 'open-accrual')).entity.accrualLedgerOpen).toBe(true);
    expect((await json('sandbox', 'entity', 'list')).map((e: any) => e.name)).toEqual([
      'Acme Stores',
    ]);
    const denied = await books('sandbox', 'org', 'create', 'Other Firm');
    expect(denied.code).toBe(4);
    const org = await runCli(
      ['sandbox', 'org', 'create', 'Other Firm', '--token', 'admin', '--json'],
      { env },
    );
    expect(JSON.parse(org.stdout)).toMatchObject({
      organization: { name: 'Other Firm' },
      token: expect.stringMatching(/^books_org_/),
    });
  });
});

describe('books sandbox feed and books transactions', () => {
  let server: TestServer;
  let home: ReturnType<typeof temporaryHome>;
  let env: NodeJS.ProcessEnv;
  const run = (...args: string[]) => runCli(args, { env });

  beforeAll(async () => {
    server = await startServer();
    home = temporaryHome();
    env = { ...home.env, BOOKS_BASE_URL: server.baseUrl, BOOKS_TOKEN: server.orgToken };
    await run('workspace', 'create', 'Feeds');
    await run('sandbox', 'entity', 'create', 'Feeder', '-w', 'Feeds');
    await run('use', '-w', 'Feeds', '-e', 'Feeder');
    await run('coa', 'create', '--name', 'Travel', '--type', 'Operating Expenses');
    await run(
      'rule',
      'create',
      '--when',
      'description_contains=uber',
      '--then',
      'account_id=Travel',
    );
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  /** A bank connected with one account: the connection and the account's financial account id. */
  const connect = async (bank: string, accountName: string) => {
    const connected = await run(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      bank,
      '--account',
      `${accountName}:bank`,
      '--json',
    );
    expect(connected.code, connected.stderr).toBe(0);
    const { connection } = JSON.parse(connected.stdout);
    return { connection, account: connection.financialAccounts[0].id as string };
  };

  it('connects, pushes a CSV (categorized by the rule, repeats skipped), lists, breaks and reconnects', async () => {
    const { connection, account } = await connect('Chase', 'Chase Checking');
    const file = path.join(home.home, 'statement.csv');
    writeFileSync(
      file,
      'Date,Amount,Description,External ID\n2026-03-01,-24.50,UBER *TRIP,t1\n2026-03-02,"1,500.00",ACME PAYROLL,t2\n',
    );
    const pushed = await run('sandbox', 'feed', 'push', account, file);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain(
      '2 new transactions (1 categorized, 1 uncategorized; 0 already there)',
    );
    const again = await run('sandbox', 'feed', 'push', account, file);
    expect(again.stderr).toContain(
      '0 new transactions (0 categorized, 0 uncategorized; 2 already there)',
    );
    const listed = await run('transactions', 'list', '--json');
    expect(JSON.parse(listed.stdout).map((t: any) => [t.description, t.amount, t.status])).toEqual([
      ['ACME PAYROLL', 1500, 'uncategorized'],
      ['UBER *TRIP', -24.5, 'categorized'],
    ]);
    const broken = await run('sandbox', 'feed', 'break', connection.id, '--error', 'mfa_required');
    expect(broken.stderr).toContain(`connection ${connection.id} is broken`);
    const back = await run('sandbox', 'feed', 'reconnect', connection.id);
    expect(back.stderr).toContain(`connection ${connection.id} is syncing`);
  });

  it('refuses a bad statement file with exit 3 and line numbers', async () => {
    const file = path.join(home.home, 'bad-statement.csv');
    writeFileSync(
      file,
      'date,amount,description\n2026-03-40,5,x\n2026-03-01,0,zero\n2026-03-01,5,\n',
    );
    const result = await run(
      'sandbox',
      'feed',
      'push',
      '00000000-0000-4000-8000-000000000000',
      file,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:2: date "2026-03-40" is not a date`);
    expect(result.stderr).toContain(`${file}:4: the description is empty`);
    // A movement of 0.00 is no fault of the file: it moves no money (below).
    expect(result.stderr).not.toContain(`${file}:3:`);
  });

  it('leaves a movement of 0.00 out, said, and brings in the rest (it refused the whole file)', async () => {
    const { account } = await connect('Zero Bank', 'Zero Checking');
    const file = path.join(home.home, 'zero-statement.csv');
    writeFileSync(
      file,
      'date,amount,description\n2026-03-01,0.00,CARD RENEWAL FEE WAIVED\n2026-03-02,-12.00,BAKERY\n',
    );
    const pushed = await run('sandbox', 'feed', 'push', account, file);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain(
      'books: 1 entry of 0.00 left out: a bank transaction moves money',
    );
    expect(pushed.stderr).toContain('1 new transactions');
  });

  it('parses --account NAME:kind, a chart account by name, or an id', async () => {
    const { parseConnect } = await import('../../src/cli/commands/sandbox/feed/shared.js');
    expect(
      parseConnect({
        bank: 'Amex',
        account: ['Gold: Card:credit_card', '00000000-0000-4000-8000-000000000000'],
        direct: true,
        integration: false,
      }),
    ).toEqual({
      bankName: 'Amex',
      accounts: [
        { name: 'Gold: Card', kind: 'credit_card' },
        { financialAccountId: '00000000-0000-4000-8000-000000000000' },
      ],
      direct: true,
      createdByIntegration: false,
    });
    // A name alone is an account of the chart (its kind is its type); a kind not known is refused.
    expect(parseConnect({ bank: 'x', account: ['Savings'] }).accounts).toEqual([
      { name: 'Savings', kind: undefined },
    ]);
    expect(() => parseConnect({ bank: 'x', account: ['Savings:savings'] })).toThrow(
      '--account takes NAME:bank or NAME:credit_card, an account of the chart, or a financial account id; got "Savings:savings"',
    );
    expect(() => parseConnect({ account: ['a:bank'] })).toThrow('--bank is required');
  });
});

describe('books login, profiles and config', () => {
  let server: TestServer;
  let home: ReturnType<typeof temporaryHome>;
  beforeAll(async () => {
    server = await startServer();
    home = temporaryHome();
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('logs in with --token-stdin (checked), lists profiles without tokens, switches, logs out', async () => {
    const env = home.env;
    const bad = await runCli(['login', '--base-url', server.baseUrl, '--token-stdin'], {
      env,
      input: 'wrong\n',
    });
    expect(bad.code).toBe(4);
    const login = await runCli(
      ['login', '--base-url', server.baseUrl, '--token-stdin', '--profile', 'work'],
      { env, input: `${server.orgToken}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('logged in to');
    expect(login.stderr).not.toContain(server.orgToken);
    const { statSync, readFileSync } = await import('node:fs');
    const configFile = path.join(home.home, '.config/books/config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile, 'utf8')).profiles.work.token).toBe(server.orgToken);

    // The profile is now where commands go.
    expect((await runCli(['workspace', 'create', 'Via Profile'], { env })).code).toBe(0);
    const profiles = await runCli(['profile', 'list', '--json'], { env });
    expect(profiles.stdout).not.toContain(server.orgToken);
    expect(JSON.parse(profiles.stdout)).toEqual([
      { name: 'work', baseUrl: server.baseUrl, current: true },
    ]);
    expect((await runCli(['profile', 'use', 'nope'], { env })).code).toBe(2);

    await runCli(['config', 'set', 'output', 'csv'], { env });
    expect((await runCli(['config', 'get', 'output'], { env })).stdout).toBe('csv\n');
    expect((await runCli(['config', 'get', 'profile'], { env })).stdout).toBe('work\n');
    expect((await runCli(['config', 'set', 'profiles.work.token', 'x'], { env })).code).toBe(2);
    expect((await runCli(['config', 'get', 'missing'], { env })).code).toBe(2);

    expect((await runCli(['logout'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(configFile, 'utf8')).profiles.work).toBeUndefined();
  });
});
