import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';
import { REGULAR_PAYEES } from '../helpers/categorizedData.js';
import { camtFile, closingOf, type ModelStatement } from '../helpers/statementFiles.js';

/*
 * The bookkeeper's day through the built binary against `books serve` (a SQLite file; a
 * PostgreSQL database in the PostgreSQL run): a statement brought in, the rules take some,
 * suggestions for the rest, decisions from a script and at a terminal, transfers and matches
 * that post once, then the month reconciled and reviewed. Figures are computed here.
 */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasScript)
  console.log('skipped: the review at a terminal needs util-linux `script` on the PATH');

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

describe("the bookkeeper's day (the built binary against books serve)", () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  let fileNumber = 0;

  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '10' };
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  const books = (...args: string[]) => runBooks(args, env);
  const json = async (...args: string[]) => {
    const result = await books(...args, '--json');
    expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout);
  };
  const fileOf = (text: string, name: string) => {
    const file = path.join(home.home, `${++fileNumber}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await server.api(method, url, body);
    expect(response.status, `${method} ${url} ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return response.body;
  };

  /** A client: checking and a card connected, a small chart, chosen with `-w … -e …`. */
  const newClient = async (name: string) => {
    const { workspace } = await api('POST', '/platform/v1/workspaces', { name, timezone: 'UTC' });
    const { entity } = await api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      name: `${name} Ltd`,
      bookkeepingStartDate: '2026-01-01',
    });
    const where = ['-w', workspace.id, '-e', entity.id];
    const accounts: Record<string, string> = {};
    for (const [account, type] of [
      ['Telephone', 'Operating Expenses'],
      ['Office Supplies', 'Operating Expenses'],
      ['Meals', 'Operating Expenses'],
      ['Payroll', 'Operating Expenses'],
      ['Sales', 'Income'],
      ['Capital', 'Equity'],
    ] as const) {
      const made = await api('POST', `/platform/v1/entities/${entity.id}/chart-of-accounts`, {
        name: account,
        type,
      });
      accounts[account] = made.account.id;
    }
    const connected = await books(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Chase',
      '--account',
      'Checking:bank',
      '--account',
      'Card:credit_card',
      '--json',
      ...where,
    );
    expect(connected.code, connected.stderr).toBe(0);
    const [checking, card] = JSON.parse(connected.stdout).connection.financialAccounts;
    accounts.Checking = checking.chartAccountId;
    accounts.Card = card.chartAccountId;
    return { workspaceId: workspace.id, entityId: entity.id, where, accounts };
  };
  type Client = Awaited<ReturnType<typeof newClient>>;

  const january = (
    entries: ModelStatement['entries'],
    account = 'GB33BUKB20201555555555',
  ): ModelStatement => ({
    account,
    currency: 'USD',
    from: '2026-01-01',
    to: '2026-01-31',
    opening: 0,
    entries,
  });
  const camt = (statement: ModelStatement, name = 'january.xml') =>
    fileOf(camtFile([statement], { message: '053', version: '08' }), name);
  /** A January statement of these entries brought into the client's checking account. */
  const bringIn = async (client: Client, entries: ModelStatement['entries']) => {
    const result = await books(
      'transactions',
      'import',
      'Checking',
      camt(january(entries)),
      ...client.where,
    );
    expect(result.code, result.stderr).toBe(0);
  };
  const waiting = async (client: Client) =>
    (await json(
      'transactions',
      'list',
      '--status',
      'uncategorized',
      '--suggest',
      ...client.where,
    )) as any[];
  const trialBalance = async (client: Client) => {
    const rows = new Map<string, number>();
    for (const row of (
      await api(
        'GET',
        `/platform/v1/entities/${client.entityId}/reports/trial-balance?startDate=2026-01-01&endDate=2026-12-31`,
      )
    ).report.rows)
      rows.set(row.accountName, Math.round((row.debit - row.credit) * 100));
    return rows;
  };

  it('a statement comes in keyed by the bank’s references: counts said, nothing twice; the rules take what they know', async () => {
    const client = await newClient('Import');
    await books(
      'rule',
      'create',
      '--when',
      'description_contains=verizon',
      '--then',
      `account_id=Telephone`,
      ...client.where,
    );
    const statement = camt(
      january([
        { booked: '2026-01-05', cents: -8999, reference: 'R1', text: 'VERIZON WIRELESS PAYMENT' },
        { booked: '2026-01-06', cents: -1250, reference: 'R2', text: 'SQ *BLUE BOTTLE 0142' },
        { booked: '2026-01-07', cents: 250000, reference: 'R3', text: 'STRIPE TRANSFER' },
        { booked: '2026-01-08', cents: -500, reference: 'R4', text: 'PENDING', status: 'pending' },
      ]),
    );
    const first = await books(
      'transactions',
      'import',
      'Checking',
      statement,
      '--json',
      ...client.where,
    );
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      imported: 3,
      skipped: 0,
      possibleDuplicates: 0,
      categorized: 1,
      uncategorized: 2,
    });
    expect(first.stderr).toMatch(/1 pending entry left out: only booked entries come in/);
    expect(first.stderr).toMatch(
      /1000 Checking: 3 imported, 0 already there; 1 categorized by the rules, 2 waiting/,
    );
    const again = await json('transactions', 'import', 'Checking', statement, ...client.where);
    expect(again).toEqual({
      imported: 0,
      skipped: 3,
      possibleDuplicates: 0,
      categorized: 0,
      uncategorized: 0,
    });
    const listed = (await json('transactions', 'list', ...client.where)) as any[];
    expect(listed.map((t) => [t.reference, t.status, t.decidedBy])).toEqual([
      ['R3', 'uncategorized', null],
      ['R2', 'uncategorized', null],
      ['R1', 'categorized', 'rule'],
    ]);
    // Narrowed: by status, by text, by days.
    expect((await json('transactions', 'list', '--search', 'bottle', ...client.where)).length).toBe(
      1,
    );
    expect(
      (await json('transactions', 'list', '--status', 'categorized', ...client.where)).length,
    ).toBe(1);
    expect(
      (
        await json(
          'transactions',
          'list',
          '--from',
          '2026-01-06',
          '--to',
          '2026-01-06',
          ...client.where,
        )
      ).length,
    ).toBe(1);
    const missing = await books(
      'transactions',
      'import',
      'Checking',
      path.join(home.home, 'nowhere.xml'),
      ...client.where,
    );
    // A file that cannot be read is an invalid input file (cli.md: exit 3), said by its path.
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('nowhere.xml');
    const broken = await books(
      'transactions',
      'import',
      'Checking',
      fileOf('<Document>', 'broken.xml'),
      ...client.where,
    );
    expect(broken.code).toBe(3);
    expect(broken.stderr).not.toMatch(/at .*\.js/);
  });

  it('decided from a script: an account and its rule, a split, a difference refused, exclude and back, by id or reference', async () => {
    const client = await newClient('Script');
    await bringIn(client, [
      { booked: '2026-01-05', cents: -8999, reference: 'V1', text: 'VERIZON WIRELESS 1001' },
      { booked: '2026-01-06', cents: -8999, reference: 'V2', text: 'VERIZON WIRELESS 1002' },
      { booked: '2026-01-07', cents: -15000, reference: 'C1', text: 'COSTCO WHOLESALE' },
      { booked: '2026-01-08', cents: -700, reference: 'D1', text: 'DUPLICATE LINE' },
      { booked: '2026-01-09', cents: -300, reference: 'N1', text: 'POS 1234' },
    ]);
    const rule = await books(
      'transactions',
      'categorize',
      'V1',
      '--account',
      'Telephone',
      '--rule',
      '--json',
      ...client.where,
    );
    expect(rule.code, rule.stderr).toBe(0);
    expect(JSON.parse(rule.stdout)[0]).toMatchObject({
      reference: 'V1',
      decidedBy: 'person',
      category: { kind: 'account', account: { name: 'Telephone' } },
    });
    expect(rule.stderr).toMatch(
      /rule .*: description contains "VERIZON WIRELESS", outflow → \d+ Telephone/,
    );
    expect(rule.stderr).toMatch(/the new rule took 1 more of the 4 waiting/);
    const noPayee = await books(
      'transactions',
      'categorize',
      'N1',
      '--account',
      'Meals',
      '--rule',
      ...client.where,
    );
    expect(noPayee.code).toBe(0);
    expect(noPayee.stderr).toContain(
      '"POS 1234" names no payee a rule could look for; no rule made',
    );
    const wrong = await books(
      'transactions',
      'categorize',
      'C1',
      '--split',
      'Office Supplies=100',
      '--split',
      'Meals=40',
      ...client.where,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('0 decided, 1 refused (each named above)');
    expect(wrong.stderr).toMatch(
      /refused \(400\): splits: the parts add up to 140\.00, not the transaction's 150\.00: a difference of 10\.00/,
    );
    const split = await books(
      'transactions',
      'categorize',
      'C1',
      '--split',
      'Office Supplies=110',
      '--split',
      'Meals=40',
      ...client.where,
    );
    expect(split.code, split.stderr).toBe(0);
    const excluded = await books('transactions', 'categorize', 'D1', '--exclude', ...client.where);
    expect(excluded.code).toBe(0);
    let tb = await trialBalance(client);
    expect(tb.get('Checking')).toBe(-(8999 * 2 + 15000 + 300));
    expect(tb.get('Telephone')).toBe(8999 * 2);
    expect(tb.get('Office Supplies')).toBe(11000);
    expect(tb.get('Meals')).toBe(4300);
    const back = await books('transactions', 'categorize', 'D1', '--uncategorize', ...client.where);
    expect(back.code).toBe(0);
    tb = await trialBalance(client);
    expect(tb.get('Uncategorized Expense')).toBe(700);
    // Usage errors, before anything is sent.
    for (const [args, message] of [
      [
        ['V2', '--account', 'Telephone', '--exclude'],
        'one decision at a time: --account and --exclude were given',
      ],
      [['V2'], 'say what to decide'],
      [['V1', 'V2', '--split', 'Meals=1'], '--split decides one transaction, not 2'],
      [['--auto', 'V1'], '--auto decides the transactions it names itself'],
      [['V2', '--exclude', '--rule'], '--rule goes with --account'],
    ] as const) {
      const result = await books('transactions', 'categorize', ...args, ...client.where);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    const unknown = await books('transactions', 'categorize', 'NOPE', '--exclude', ...client.where);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain(
      'no bank transaction "NOPE" (by id, the bank\'s reference, or the start of either)',
    );
  });

  it('a transfer between checking and the card posts once, both leave the queue, both reconcile', async () => {
    const client = await newClient('Transfer');
    const checking = january([
      { booked: '2026-01-02', cents: 100000, reference: 'K0', text: 'OWNER CAPITAL' },
      { booked: '2026-01-15', cents: -50000, reference: 'K1', text: 'PAYMENT TO CHASE CARD' },
    ]);
    const card = january(
      [
        { booked: '2026-01-10', cents: -50000, reference: 'X0', text: 'DELTA AIR LINES' },
        { booked: '2026-01-16', cents: 50000, reference: 'X1', text: 'PAYMENT THANK YOU' },
      ],
      'CARD-4242',
    );
    const checkingFile = camt(checking, 'checking.xml');
    const cardFile = camt(card, 'card.xml');
    await books('transactions', 'import', 'Checking', checkingFile, ...client.where);
    await books('transactions', 'import', 'Card', cardFile, ...client.where);
    const suggested = (await waiting(client)).find((t) => t.reference === 'K1');
    expect(suggested.suggestion).toMatchObject({ kind: 'transfer', account: 'Card' });
    expect(suggested.suggestion.confidence).toBeGreaterThanOrEqual(0.95);
    const transfer = await books(
      'transactions',
      'categorize',
      'K1',
      '--transfer',
      '--json',
      ...client.where,
    );
    expect(transfer.code, transfer.stderr).toBe(0);
    expect(transfer.stderr).toMatch(/is its other side/);
    expect((await waiting(client)).map((t) => t.reference).sort()).toEqual(['K0', 'X0']);
    await books('transactions', 'categorize', 'K0', '--account', 'Capital', ...client.where);
    await books('transactions', 'categorize', 'X0', '--account', 'Meals', ...client.where);
    const tb = await trialBalance(client);
    expect(tb.get('Checking')).toBe(50000);
    expect(tb.get('Card') ?? 0).toBe(0);
    expect(tb.get('Uncategorized Income') ?? 0).toBe(0);
    expect(tb.get('Uncategorized Expense') ?? 0).toBe(0);
    for (const [account, file] of [
      ['Checking', checkingFile],
      ['Card', cardFile],
    ]) {
      const reconciled = await books('reconcile', account!, file!, '--json', ...client.where);
      expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
      expect(JSON.parse(reconciled.stdout)).toMatchObject({ reconciled: true, difference: 0 });
    }
    expect(closingOf(checking)).toBe(50000);
  });

  it('payroll already posted by journal: matched, posted once, reconciled; then the month reviews clean', async () => {
    const client = await newClient('Payroll');
    await api('POST', `/platform/v1/entities/${client.entityId}/journal-entries`, {
      date: '2026-01-02',
      memo: 'Capital paid in',
      lines: [
        { accountId: client.accounts.Checking, debitAmount: 10000 },
        { accountId: client.accounts.Capital, creditAmount: 10000 },
      ],
    });
    const { journalEntry } = await api(
      'POST',
      `/platform/v1/entities/${client.entityId}/journal-entries`,
      {
        date: '2026-01-15',
        memo: 'January payroll',
        lines: [
          { accountId: client.accounts.Payroll, debitAmount: 4250 },
          { accountId: client.accounts.Checking, creditAmount: 4250 },
        ],
      },
    );
    const statement = january([
      { booked: '2026-01-02', cents: 1000000, reference: 'P0', text: 'CAPITAL' },
      { booked: '2026-01-16', cents: -425000, reference: 'P1', text: 'GUSTO PAYROLL 0116' },
    ]);
    const file = camt(statement);
    await books('transactions', 'import', 'Checking', file, ...client.where);
    const line = (await waiting(client)).find((t) => t.reference === 'P1');
    expect(line.suggestion).toMatchObject({
      kind: 'match',
      entryId: journalEntry.id,
      account: 'Payroll',
    });
    const capital = (await waiting(client)).find((t) => t.reference === 'P0');
    expect(capital.suggestion).toMatchObject({ kind: 'match' });
    const auto = await books('transactions', 'categorize', '--auto', '--json', ...client.where);
    expect(auto.code, auto.stderr).toBe(0);
    expect(JSON.parse(auto.stdout).map((t: any) => t.category.kind)).toEqual(['match', 'match']);
    const tb = await trialBalance(client);
    expect(tb.get('Checking')).toBe(1000000 - 425000);
    expect(tb.get('Payroll')).toBe(425000);
    const reconciled = await books('reconcile', 'Checking', file, '--json', ...client.where);
    expect(reconciled.code, reconciled.stdout).toBe(0);
    const review = await books('close', 'review', '--period', '2026-01', '--json', ...client.where);
    const checks = JSON.parse(review.stdout)[0].checks;
    expect(checks.find((c: any) => c.id === 'uncategorized')).toMatchObject({
      status: 'pass',
      count: 0,
    });
  });

  it('--auto takes only the confident; --dry-run says and decides nothing; the summary counts them', async () => {
    const client = await newClient('Auto');
    // A year of a client's regular payees (twelve of them, monthly), decided from a file.
    const payees = REGULAR_PAYEES;
    const history = payees.flatMap(([text, cents, account], p) =>
      Array.from({ length: 12 }, (_, i) => ({
        booked: `2025-${String(i + 1).padStart(2, '0')}-${String(3 + p).padStart(2, '0')}`,
        cents,
        reference: `H${p}-${i}`,
        text: `${text} ${1000 + i}`,
        account,
      })),
    );
    await books(
      'transactions',
      'import',
      'Checking',
      camt({ ...january(history), from: '2025-01-01', to: '2025-12-31' }),
      ...client.where,
    );
    const decisions = fileOf(
      `reference,account\n${history.map((h) => `${h.reference},${h.account}`).join('\n')}\n`,
      'history.csv',
    );
    const fromFile = await books(
      'transactions',
      'categorize',
      '--from',
      decisions,
      ...client.where,
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    await bringIn(client, [
      { booked: '2026-01-05', cents: -8999, reference: 'N1', text: 'VERIZON WIRELESS 2001' },
      { booked: '2026-01-06', cents: -4200, reference: 'N2', text: 'SOMETHING NEW' },
    ]);
    const summary = (await json('transactions', 'summary', '--all')) as any[];
    expect(summary.find((r) => r.entityId === client.entityId)).toMatchObject({
      waiting: 2,
      oldest: '2026-01-05',
      moneyOut: 131.99,
      confident: 1,
    });
    const dry = await books(
      'transactions',
      'categorize',
      '--auto',
      '--dry-run',
      '--json',
      ...client.where,
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).map((t: any) => t.reference)).toEqual(['N1']);
    expect((await waiting(client)).length).toBe(2);
    const auto = await books('transactions', 'categorize', '--auto', ...client.where);
    expect(auto.code, auto.stderr).toBe(0);
    const left = await waiting(client);
    expect(left.map((t) => t.reference)).toEqual(['N2']);
    const n1 = (
      (await json('transactions', 'list', '--search', '2001', ...client.where)) as any[]
    )[0];
    expect(n1).toMatchObject({
      decidedBy: 'suggestion',
      category: { account: { name: 'Telephone' } },
    });
  });

  it('a decisions file with a bad row changes nothing and names the line (exit 3)', async () => {
    const client = await newClient('File');
    await bringIn(client, [
      { booked: '2026-01-05', cents: -1000, reference: 'F1', text: 'ONE' },
      { booked: '2026-01-06', cents: -2000, reference: 'F2', text: 'TWO' },
    ]);
    const file = fileOf('reference,account\nF1,Meals\nF2,Nowhere\nF9,Meals\n', 'bad.csv');
    const result = await books('transactions', 'categorize', '--from', file, ...client.where);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:3: no account "Nowhere" (by id, code or name)`);
    expect(result.stderr).toContain(`${file}:4: no bank transaction "F9"`);
    expect(result.stderr).toContain('nothing was decided: the file is checked whole first');
    expect((await waiting(client)).length).toBe(2);
  });

  it('a decisions file of many lines names each transaction as one decision does: by reference, by id, by the start of an id; one it cannot find is named on its line', async () => {
    // From twenty decisions on, the entity's transactions are read once rather than looked up
    // one request each (1,500 decisions took 14 s); what each line names must not change.
    const client = await newClient('Many');
    const lines = Array.from({ length: 22 }, (_, i) => ({
      booked: `2026-01-${String(5 + (i % 20)).padStart(2, '0')}`,
      cents: -(1000 + i),
      reference: `M${String(i + 1).padStart(2, '0')}`,
      text: `SUPPLIER ${i + 1}`,
    }));
    await bringIn(client, lines);
    const listed = (await json('transactions', 'list', ...client.where)) as any[];
    const idOf = (reference: string) => listed.find((t) => t.reference === reference).id;
    const rows = [
      'reference,account',
      ...lines.slice(0, 19).map((line) => `${line.reference},Meals`),
      `${idOf('M20')},Office Supplies`,
      `${idOf('M21').slice(0, 28)},Telephone`,
    ];
    const missing = fileOf(`${[...rows, 'M99,Meals'].join('\n')}\n`, 'many-bad.csv');
    const refused = await books('transactions', 'categorize', '--from', missing, ...client.where);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`${missing}:23: no bank transaction "M99"`);
    expect((await waiting(client)).length).toBe(22);
    const file = fileOf(`${rows.join('\n')}\n`, 'many.csv');
    const decided = await books('transactions', 'categorize', '--from', file, ...client.where);
    expect(decided.code, decided.stderr).toBe(0);
    const after = (await json('transactions', 'list', ...client.where)) as any[];
    const accountOf = (reference: string) =>
      after.find((t) => t.reference === reference).category?.account?.name ?? null;
    for (const line of lines.slice(0, 19)) expect(accountOf(line.reference)).toBe('Meals');
    expect(accountOf('M20')).toBe('Office Supplies');
    expect(accountOf('M21')).toBe('Telephone');
    expect(accountOf('M22')).toBeNull();
  });

  it('two processes deciding one transaction at once: one wins, the other is told (exit 1), nothing posts twice', async () => {
    const client = await newClient('Race');
    await books(
      'transactions',
      'import',
      'Checking',
      camt(january([{ booked: '2026-01-05', cents: -1000, reference: 'Z1', text: 'RACE' }])),
      ...client.where,
    );
    const [a, b] = await Promise.all([
      books('transactions', 'categorize', 'Z1', '--account', 'Meals', ...client.where),
      books('transactions', 'categorize', 'Z1', '--account', 'Office Supplies', ...client.where),
    ]);
    const codes = [a.code, b.code].sort();
    // Both may read version 0 (then one is refused), or one may read after the other (then it recategorizes).
    if (codes[1] === 1)
      expect((a.code === 1 ? a : b).stderr).toMatch(
        /refused \(409\): transaction .* was decided meanwhile/,
      );
    else expect(codes).toEqual([0, 0]);
    const tb = await trialBalance(client);
    expect((tb.get('Meals') ?? 0) + (tb.get('Office Supplies') ?? 0)).toBe(1000);
    expect(tb.get('Checking')).toBe(-1000);
  });

  it('a transaction on or before the lock date is refused naming the lock', async () => {
    const client = await newClient('Locked');
    await books(
      'transactions',
      'import',
      'Checking',
      camt(january([{ booked: '2026-01-05', cents: -1000, reference: 'L1', text: 'OLD' }])),
      ...client.where,
    );
    await api('PATCH', `/sandbox/v1/entities/${client.entityId}`, { lockDate: '2026-01-31' });
    const result = await books(
      'transactions',
      'categorize',
      'L1',
      '--account',
      'Meals',
      ...client.where,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /refused \(409\): transaction .* of 2026-01-05 is on or before the lock date 2026-01-31: the books are locked through 2026-01-31/,
    );
  });

  it('rule apply: each rule says what it took; a dry run decides nothing', async () => {
    const client = await newClient('Rules');
    await bringIn(client, [
      { booked: '2026-01-05', cents: -1000, reference: 'A1', text: 'ADOBE CREATIVE' },
      { booked: '2026-01-06', cents: -1000, reference: 'A2', text: 'ADOBE CREATIVE' },
    ]);
    await books(
      'rule',
      'create',
      '--when',
      'description_contains=adobe',
      '--then',
      'account_id=Office Supplies',
      ...client.where,
    );
    const dry = await json('rule', 'apply', '--dry-run', ...client.where);
    expect(dry).toMatchObject({ categorized: 2, waiting: 2, dryRun: true });
    const said = await books('rule', 'apply', '--dry-run', ...client.where);
    expect(said.stderr).toContain(
      'books: the rules would take 2 of the 2 waiting transactions (dry run: nothing is decided)',
    );
    expect((await waiting(client)).length).toBe(2);
    const applied = await books('rule', 'apply', ...client.where);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toMatch(/the rules took 2 of the 2 waiting transactions/);
    expect((await waiting(client)).length).toBe(0);
  });

  it('review without a terminal says what to use instead (exit 2)', async () => {
    const client = await newClient('NoTerminal');
    const result = await books(...['transactions', 'review'], ...client.where);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /asks at a terminal; from a script use books transactions categorize --from FILE.csv, or --auto/,
    );
  });

  it.skipIf(!hasScript)(
    'review at a terminal: accept, choose by typing, skip, undo, quit; each decision kept',
    async () => {
      const client = await newClient('Terminal');
      await books(
        'transactions',
        'import',
        'Checking',
        camt(
          january([
            { booked: '2026-01-03', cents: -8999, reference: 'T0', text: 'VERIZON WIRELESS' },
            { booked: '2026-01-04', cents: -8999, reference: 'T1', text: 'VERIZON WIRELESS' },
            { booked: '2026-01-05', cents: -1250, reference: 'T2', text: 'BLUE BOTTLE COFFEE' },
            { booked: '2026-01-06', cents: -4200, reference: 'T3', text: 'STAPLES STORE' },
          ]),
        ),
        ...client.where,
      );
      await books('transactions', 'categorize', 'T0', '--account', 'Telephone', ...client.where);
      const command = [process.execPath, BOOKS_BIN, 'transactions', 'review', ...client.where]
        .map(shellQuote)
        .join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { ...env, TERM: 'xterm' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      // Each answer typed once its question shows, looking only at what came after the last.
      const dialogue: [RegExp, string][] = [
        [/1 of 3/, 'a\r'], // VERIZON: accept the suggestion (Telephone)
        [/2 of 3/, 'c\r'], // BLUE BOTTLE: choose an account…
        [/Account/, 'mea'], // …typed ahead, until Meals is the one shown first
        [/❯ \d+ Meals/, '\r'],
        [/3 of 3/, 'n\r'], // STAPLES: skip: the end of the queue
      ];
      let next = 0;
      let seen = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        const step = dialogue[next];
        if (step && step[0].test(screen.slice(seen))) {
          next += 1;
          seen = screen.length;
          setTimeout(() => child.stdin.write(step[1]), 50);
        }
      });
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.on('close', (exit) => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
      expect(code, screen).toBe(0);
      expect(screen).toMatch(/suggests \d+ Telephone \(confidence/);
      expect(screen).toContain(
        '3 bank transactions wait, oldest first; each decision is sent when it is made (h: help)',
      );
      expect(screen).toMatch(/2 decided, 1 skipped; 1 waits/);
      const left = await waiting(client);
      expect(left.map((t) => t.reference)).toEqual(['T3']);
      const decided = (await json(
        'transactions',
        'list',
        '--status',
        'categorized',
        ...client.where,
      )) as any[];
      expect(
        decided.map((t) => [t.reference, t.category.account.name, t.decidedBy]).sort(),
      ).toEqual([
        ['T0', 'Telephone', 'person'],
        ['T1', 'Telephone', 'suggestion'],
        ['T2', 'Meals', 'person'],
      ]);
    },
    60_000,
  );
});
