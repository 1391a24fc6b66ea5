import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { LEAVES } from '../../src/cli/registry.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { expectGolden } from '../helpers/golden.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Every leaf command succeeding, in text and in JSON, pinned in test/golden/cli/success/:
 * one firm's books built and taken apart command by command on the embedded platform (the
 * profile commands against a real server on a loopback port). What the platform makes fresh
 * each run (ids, times, secrets, tokens, ports, the temporary HOME) is replaced by a stable
 * name before comparing.
 */

/**
 * Leaves whose success runs until stopped (or, for the demo, builds a whole firm), or is only
 * seen through another program (a shell runs the completion script); the end-to-end test named
 * covers each, and is checked to run it.
 */
const LONG_RUNNING: Record<string, string> = {
  serve: 'test/e2e/serve.test.ts',
  'webhook listen': 'test/e2e/webhooks.test.ts',
  demo: 'test/e2e/migrate.test.ts',
  'db copy': 'test/e2e/dbCopy.test.ts',
  'db check': 'test/e2e/dbCheck.test.ts',
  'db backup': 'test/e2e/dbBackup.test.ts',
  'db restore': 'test/e2e/dbBackup.test.ts',
  export: 'test/e2e/exportImport.test.ts',
  import: 'test/e2e/exportImport.test.ts',
  completion: 'test/e2e/completion.test.ts',
  'report pack': 'test/e2e/reportPack.test.ts',
  'transactions review': 'test/e2e/bookkeepersDay.test.ts',
};

const ROOT = path.resolve(import.meta.dirname, '../..');

const clock: Clock = {
  now: () => new Date('2026-03-15T12:00:00Z'),
  sleep: async () => undefined,
};

interface Step {
  leaf: string;
  /** The text run; the JSON run adds `-o json` (to `json` when given: writes need their own). */
  text: string[];
  json?: string[];
  /** Standard input, for each run. */
  input?: string;
}

describe('every leaf command, succeeding, pinned', () => {
  const home = temporaryHome();
  let server: TestServer;
  const names = new Map<string, string>();
  // A delivery's signing time: the webhook library checks it against the real clock.
  const timestamp = String(Math.floor(Date.now() / 1000));
  const stable = (text: string) =>
    text
      .replaceAll(home.home, '<home>')
      .replaceAll(timestamp, '<timestamp>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!names.has(id)) names.set(id, `<id ${names.size + 1}>`);
        return names.get(id)!;
      })
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      // The day a return is marked filed, as a table shows it.
      .replace(/\t\d{4}-\d\d-\d\d(\tyes|\tNO)\t/g, '\t<day>$1\t')
      .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_<secret>')
      .replace(/books_(org|admin)_[A-Za-z0-9_-]+/g, 'books_$1_<token>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>')
      .replace(/\b\d+ entries\/s\b/g, '<rate>')
      .replace(/"durationMs": \d+/g, '"durationMs": "<duration>"');

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  const file = (name: string, content: string) => {
    const where = path.join(home.home, name);
    writeFileSync(where, content);
    return where;
  };
  const run = (args: string[], input?: string) =>
    runCli(args, { env: home.env, services: { clock }, ...(input !== undefined && { input }) });
  /** A command's JSON answer, for the ids later steps need (not pinned). */
  const answer = async (args: string[]): Promise<any> => {
    const result = await run([...args, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };

  const asAdmin = () => ['--base-url', server.baseUrl, '--token', server.adminToken];
  const covered = new Set<string>();
  const pin = async (step: Step) => {
    covered.add(step.leaf);
    const sections: string[] = [];
    for (const args of [step.text, [...(step.json ?? step.text), '-o', 'json']]) {
      const result = await run(args, step.input);
      sections.push(
        stable(
          `$ books ${args.join(' ')}\nexit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
        ),
      );
      expect(result.code, sections.at(-1)).toBe(0);
    }
    expectGolden(`cli/success/${step.leaf.split(' ').join('-')}.txt`, sections.join('\n'));
  };

  it('builds a firm’s books and takes them apart, one leaf at a time', async () => {
    // Workspaces, entities and where to work.
    await pin({
      leaf: 'workspace create',
      text: ['workspace', 'create', 'Golden Books', '--timezone', 'UTC'],
      json: ['workspace', 'create', 'Spare Books', '--timezone', 'UTC'],
    });
    await pin({ leaf: 'workspace list', text: ['workspace', 'list'] });
    await pin({ leaf: 'workspace get', text: ['workspace', 'get', 'Golden Books'] });
    await pin({
      leaf: 'sandbox entity create',
      text: ['sandbox', 'entity', 'create', 'Corner Shop', '-w', 'Golden Books'],
      json: [
        'sandbox',
        'entity',
        'create',
        'Migrated Shop',
        '-w',
        'Golden Books',
        '--start-date',
        '2025-01-01',
      ],
    });
    await answer([
      'sandbox',
      'entity',
      'create',
      'Migrated Two',
      '-w',
      'Golden Books',
      '--start-date',
      '2025-01-01',
    ]);
    await pin({ leaf: 'use', text: ['use', '-w', 'Golden Books', '-e', 'Corner Shop'] });
    await pin({ leaf: 'sandbox entity list', text: ['sandbox', 'entity', 'list'] });
    await pin({ leaf: 'sandbox entity get', text: ['sandbox', 'entity', 'get'] });
    await pin({
      leaf: 'sandbox entity update',
      text: ['sandbox', 'entity', 'update', '--start-date', '2026-01-01'],
      json: ['sandbox', 'entity', 'update', '--lock-date', 'none'],
    });
    await pin({ leaf: 'sandbox entity open-accrual', text: ['sandbox', 'entity', 'open-accrual'] });
    await pin({
      leaf: 'sandbox workspace update',
      text: ['sandbox', 'workspace', 'update', '--standard-chart'],
    });

    // The chart.
    await pin({
      leaf: 'coa create',
      text: ['coa', 'create', '--name', 'Chase Checking', '--type', 'Cash'],
      json: ['coa', 'create', '--name', 'Sales', '--type', 'Income'],
    });
    await pin({
      leaf: 'coa import',
      text: [
        'coa',
        'import',
        file(
          'chart.csv',
          'name,type\nRent,Operating Expenses\nOffice Supplies,Operating Expenses\n',
        ),
      ],
      json: ['coa', 'import', file('chart2.csv', 'name,type\nUtilities,Operating Expenses\n')],
    });
    await pin({ leaf: 'coa list', text: ['coa', 'list'] });
    await pin({ leaf: 'coa get', text: ['coa', 'get', 'Chase Checking'] });
    await pin({
      leaf: 'coa rename',
      text: ['coa', 'rename', 'Office Supplies', 'Supplies'],
      json: ['coa', 'rename', 'Utilities', 'Utilities and Power'],
    });
    await pin({
      leaf: 'group create',
      text: ['group', 'create', '--name', 'Premises', '--type', 'Operating Expenses'],
      json: ['group', 'create', '--name', 'Banks', '--type', 'Cash'],
    });
    await pin({ leaf: 'group list', text: ['group', 'list'] });
    await pin({ leaf: 'group get', text: ['group', 'get', 'Premises'] });
    await pin({
      leaf: 'group update',
      text: ['group', 'update', 'Premises', '--name', 'Premises Costs'],
      json: ['group', 'update', 'Banks', '--name', 'Bank Accounts'],
    });
    await pin({
      leaf: 'coa move',
      text: ['coa', 'move', 'Rent', '--group', 'Premises Costs'],
      json: ['coa', 'move', 'Rent', '--no-group'],
    });
    await pin({
      leaf: 'coa disable',
      text: ['coa', 'disable', 'Supplies'],
      json: ['coa', 'disable', 'Utilities and Power'],
    });
    await pin({
      leaf: 'coa enable',
      text: ['coa', 'enable', 'Supplies'],
      json: ['coa', 'enable', 'Utilities and Power'],
    });

    // Classes and rules.
    await pin({
      leaf: 'class create',
      text: ['class', 'create', 'Retail'],
      json: ['class', 'create', 'Wholesale'],
    });
    await pin({ leaf: 'class list', text: ['class', 'list'] });
    await pin({ leaf: 'class get', text: ['class', 'get', 'Retail'] });
    await pin({
      leaf: 'class rename',
      text: ['class', 'rename', 'Retail', 'Retail Sales'],
      json: ['class', 'rename', 'Wholesale', 'Wholesale Sales'],
    });
    await pin({
      leaf: 'rule create',
      text: ['rule', 'create', '--when', 'description_contains=rent', '--then', 'account_id=Rent'],
      json: [
        'rule',
        'create',
        '--when',
        'description_contains=paper,toner',
        '--then',
        'account_id=Supplies',
        '--note',
        'office',
      ],
    });
    await pin({ leaf: 'rule list', text: ['rule', 'list'] });
    const rules = (await answer(['rule', 'list'])) as { id: string }[];
    const [rentRule, paperRule] = rules.map((rule) => rule.id);
    await pin({ leaf: 'rule get', text: ['rule', 'get', rentRule!] });
    await pin({
      leaf: 'rule update',
      text: ['rule', 'update', rentRule!, '--note', 'landlord'],
      json: ['rule', 'update', paperRule!, '--clear-note'],
    });
    await pin({ leaf: 'rule disable', text: ['rule', 'disable', rentRule!] });
    await pin({ leaf: 'rule enable', text: ['rule', 'enable', rentRule!] });

    // Journal entries and reports.
    await pin({
      leaf: 'je create',
      text: [
        'je',
        'create',
        '--date',
        '2026-01-05',
        '--debit',
        'Chase Checking=1200.50',
        '--credit',
        'Sales=1200.50',
        '--memo',
        'January sales',
      ],
      json: [
        'je',
        'create',
        '--date',
        '2026-01-31',
        '--debit',
        'Rent=800',
        '--credit',
        'Chase Checking=800',
        '--memo',
        'January rent',
      ],
    });
    await pin({
      leaf: 'je import',
      text: [
        'je',
        'import',
        file(
          'january.csv',
          'date,entry,account,debit,credit,memo\n2026-01-10,S1,Chase Checking,450.00,,Till\n2026-01-10,S1,Sales,,450.00,Till\n2026-01-12,P1,Supplies,35.20,,Paper\n2026-01-12,P1,Chase Checking,,35.20,Paper\n',
        ),
      ],
      json: [
        'je',
        'import',
        file(
          'february.csv',
          'date,entry,account,debit,credit,memo\n2026-02-02,S2,Chase Checking,99.99,,Till\n2026-02-02,S2,Sales,,99.99,Till\n',
        ),
      ],
    });
    await pin({
      leaf: 'je list',
      text: ['je', 'list', '--from', '2026-01-01', '--to', '2026-02-28'],
    });
    await pin({ leaf: 'rule suggest', text: ['rule', 'suggest', '--min-support', '2'] });
    const entries = (await answer([
      'je',
      'list',
      '--from',
      '2026-01-01',
      '--to',
      '2026-01-31',
    ])) as {
      id: string;
      memo: string;
    }[];
    const sales = entries.find((entry) => entry.memo === 'January sales')!.id;
    const till = entries.find((entry) => entry.memo === 'Till')!.id;
    await pin({ leaf: 'je get', text: ['je', 'get', sales] });
    await pin({
      leaf: 'je update',
      text: ['je', 'update', sales, '--memo', 'January sales, counted'],
      json: ['je', 'update', till, '--date', '2026-01-11'],
    });
    const month = ['--from', '2026-01-01', '--to', '2026-01-31'];
    for (const report of ['pl', 'bs', 'cf', 'tb', 'gl']) {
      await pin({ leaf: `report ${report}`, text: ['report', report, ...month] });
    }

    // The bank's statement of Chase Checking for January, and its reconciliation.
    const january = file(
      'january.sta',
      [
        ':20:JAN2026',
        ':25:NL91ABNA0417164300',
        ':28C:00001/1',
        ':60F:C251231EUR0,00',
        ':61:2601050105C1200,50NTRFNONREF//B1',
        ':86:January sales',
        ':61:2601120112C450,00NTRFNONREF//B2',
        ':86:Till',
        ':61:2601130113D35,20NTRFNONREF//B3',
        ':86:Paper',
        ':61:2601310131D800,00NTRFNONREF//B4',
        ':86:January rent',
        ':61:2601310131D4,50NTRFNONREF//B5',
        ':86:Account fee',
        ':62F:C260131EUR810,80',
        '-',
      ].join('\r\n'),
    );
    await pin({ leaf: 'statement show', text: ['statement', 'show', january] });
    // A bank's CSV without a header, its layout saved, listed and forgotten.
    const export1 = file(
      'export.csv',
      '"05.01.2026";"Till";"450,00"\n"13.01.2026";"Paper";"-35,20"\n',
    );
    const saved = await run([
      ...['statement', 'show', export1, '--map', 'date=1,description=2,amount=3'],
      ...['--date-format', 'DD.MM.YYYY', '--decimal-comma', '--save-layout', 'Corner bank'],
    ]);
    expect(saved.code, saved.stderr).toBe(0);
    await pin({ leaf: 'statement layouts', text: ['statement', 'layouts'] });
    await pin({
      leaf: 'reconcile',
      text: ['reconcile', 'Chase Checking', january, '--post-missing', 'Supplies'],
    });

    // Bank feeds and their transactions.
    await pin({
      leaf: 'sandbox feed connect',
      text: [
        'sandbox',
        'feed',
        'connect',
        '--bank',
        'Chase',
        '--account',
        'Chase Card:credit_card',
      ],
      json: ['sandbox', 'feed', 'connect', '--bank', 'Amex', '--account', 'Amex Gold:credit_card'],
    });
    const connection = await answer([
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Local Bank',
      '--account',
      'Local Checking:bank',
    ]);
    const connectionId: string = connection.connection?.id ?? connection.id;
    const financialAccountId: string =
      JSON.stringify(connection).match(/"financialAccountId":"([0-9a-f-]{36})"/)?.[1] ??
      (connection.connection ?? connection).financialAccounts?.[0]?.id;
    await pin({
      leaf: 'sandbox feed push',
      text: [
        'sandbox',
        'feed',
        'push',
        financialAccountId,
        file('statement.csv', 'date,amount,description\n2026-02-03,-1200.00,Rent March\n'),
      ],
      json: [
        'sandbox',
        'feed',
        'push',
        financialAccountId,
        file('statement2.csv', 'date,amount,description\n2026-02-04,-12.40,Paper and toner\n'),
      ],
    });
    await pin({ leaf: 'transactions list', text: ['transactions', 'list'] });
    await pin({
      leaf: 'transactions import',
      text: [
        'transactions',
        'import',
        'Local Checking',
        file(
          'february.csv',
          'date,amount,description,reference\n2026-02-05,-45.10,STAPLES 00123,S-1\n',
        ),
      ],
      json: [
        'transactions',
        'import',
        'Local Checking',
        file(
          'february2.csv',
          'date,amount,description,reference\n2026-02-06,-9.50,BLUE BOTTLE,S-2\n',
        ),
      ],
    });
    await pin({
      leaf: 'transactions categorize',
      text: ['transactions', 'categorize', 'S-1', '--account', 'Supplies'],
      json: ['transactions', 'categorize', 'S-2', '--exclude'],
    });
    await pin({ leaf: 'transactions summary', text: ['transactions', 'summary'] });
    await pin({
      leaf: 'rule apply',
      text: ['rule', 'apply', '--dry-run'],
      json: ['rule', 'apply'],
    });
    await pin({ leaf: 'sandbox feed break', text: ['sandbox', 'feed', 'break', connectionId] });
    await pin({
      leaf: 'sandbox feed reconnect',
      text: ['sandbox', 'feed', 'reconnect', connectionId],
    });

    // Webhook endpoints (nothing listens on port 9: deliveries fail, and are recorded).
    await pin({
      leaf: 'sandbox webhook add',
      text: ['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/books'],
      json: ['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/spare'],
    });
    await pin({ leaf: 'sandbox webhook list', text: ['sandbox', 'webhook', 'list'] });
    const endpoints = (await answer(['sandbox', 'webhook', 'list'])) as {
      id: string;
      url: string;
    }[];
    const endpoint = endpoints.find((e) => e.url.endsWith('/books'))!.id;
    const spare = endpoints.find((e) => e.url.endsWith('/spare'))!.id;
    await pin({ leaf: 'sandbox webhook rotate', text: ['sandbox', 'webhook', 'rotate', endpoint] });
    await pin({
      leaf: 'sandbox webhook attempts',
      text: ['sandbox', 'webhook', 'attempts', endpoint],
    });
    await pin({
      leaf: 'sandbox webhook retry',
      text: ['sandbox', 'webhook', 'retry', endpoint, '--since', '2026-01-01'],
    });
    await pin({
      leaf: 'sandbox webhook remove',
      text: ['sandbox', 'webhook', 'remove', endpoint, '--yes'],
      json: ['sandbox', 'webhook', 'remove', spare, '--yes'],
    });
    const secret = `whsec_${Buffer.from('a golden test secret, 24b').toString('base64')}`;
    const body =
      '{"event":"feed_connection.disconnected","version":1,"occurredAt":1773576000,"payload":{"connectionId":"golden"}}';
    const signature = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`msg_golden.${timestamp}.${body}`)
      .digest('base64');
    const headers = file(
      'headers.txt',
      `webhook-id: msg_golden\nwebhook-timestamp: ${timestamp}\nwebhook-signature: v1,${signature}\n`,
    );
    await pin({
      leaf: 'webhook verify',
      text: [
        'webhook',
        'verify',
        '--secret',
        secret,
        '--headers',
        headers,
        '--body',
        file('body.json', body),
      ],
    });

    // The migration of a ledger into a new entity.
    const ledger = file(
      'ledger.csv',
      'date,entry,account,account_type,debit,credit\n2025-01-02,1,Checking,Cash,500.00,,\n2025-01-02,1,Owner Equity,Equity,,500.00\n2025-01-03,2,Paper,Operating Expenses,20.00,\n2025-01-03,2,Checking,Cash,,20.00\n',
    );
    const migrated = ['-e', 'Migrated Shop'];
    await pin({
      leaf: 'migrate run',
      text: ['migrate', 'run', ledger, ...migrated, '--create-missing-accounts', '--no-finalize'],
      // (A dry run parses on the CSV thread, which runs only from the build: test/e2e covers it.)
      json: [
        'migrate',
        'run',
        ledger,
        '-e',
        'Migrated Two',
        '--create-missing-accounts',
        '--no-finalize',
      ],
    });
    await pin({ leaf: 'migrate status', text: ['migrate', 'status', ...migrated] });
    await answer([
      'sandbox',
      'feed',
      'connect',
      ...migrated,
      '--bank',
      'Shop Bank',
      '--account',
      'Shop Checking:bank',
    ]);
    await answer([
      'sandbox',
      'feed',
      'connect',
      '-e',
      'Migrated Two',
      '--bank',
      'Two Bank',
      '--account',
      'Two Checking:bank',
    ]);
    await pin({
      leaf: 'migrate merge',
      text: [
        'migrate',
        'merge',
        ...migrated,
        '--source',
        'Checking',
        '--target',
        'Shop Checking',
        '--yes',
      ],
      json: [
        'migrate',
        'merge',
        '-e',
        'Migrated Two',
        '--source',
        'Checking',
        '--target',
        'Two Checking',
        '--yes',
      ],
    });
    await pin({
      leaf: 'migrate finalize',
      text: ['migrate', 'finalize', ...migrated, '--no-wait'],
    });

    // Locking, another organization, the audit log.
    await pin({
      leaf: 'sandbox entity lock',
      text: ['sandbox', 'entity', 'lock', '--date', '2026-01-31'],
      json: ['sandbox', 'entity', 'lock', '--date', 'none'],
    });
    await pin({
      leaf: 'sandbox org create',
      // With the admin token of a served platform, as its help says.
      text: ['sandbox', 'org', 'create', 'Other Firm', ...asAdmin()],
      json: ['sandbox', 'org', 'create', 'Third Firm', ...asAdmin()],
    });
    await pin({ leaf: 'log', text: ['log', '--limit', '3'] });

    // The month's review and close, of an entity whose books are in order.
    await answer(['sandbox', 'entity', 'create', 'Quiet Shop', '-w', 'Golden Books']);
    const quiet = ['-e', 'Quiet Shop'];
    await pin({ leaf: 'close review', text: ['close', 'review', '--period', '2026-02', ...quiet] });
    await pin({ leaf: 'close', text: ['close', '2026-02', ...quiet] });

    // The entity's VAT: registered, its codes, a quarter's return (of books with no coded
    // posting yet: every box 0.00, and it ties).
    await answer(['sandbox', 'entity', 'create', 'Taxed Shop', '-w', 'Golden Books']);
    const taxed = ['-e', 'Taxed Shop'];
    await pin({ leaf: 'tax setup', text: ['tax', 'setup', '--country', 'GB', ...taxed] });
    await pin({ leaf: 'tax codes', text: ['tax', 'codes', ...taxed] });
    await pin({
      leaf: 'tax return',
      text: ['tax', 'return', '--period', '2026-Q1', ...taxed],
      json: ['tax', 'return', '--period', '2026-Q1', '--mark-filed', ...taxed],
    });
    await pin({ leaf: 'tax returns', text: ['tax', 'returns', ...taxed] });
    await pin({
      leaf: 'tax code create',
      text: [
        'tax',
        'code',
        'create',
        'S12',
        '--side',
        'sales',
        '--kind',
        'output',
        '--rate',
        '12.5',
        ...taxed,
      ],
      json: [
        'tax',
        'code',
        'create',
        'P12',
        '--side',
        'purchases',
        '--kind',
        'input',
        '--rate',
        '12.5,20@2027-01-01',
        ...taxed,
      ],
    });
    await pin({
      leaf: 'tax code update',
      text: ['tax', 'code', 'update', 'S12', '--name', 'Hospitality 12.5 %', ...taxed],
    });
    await pin({
      leaf: 'tax code archive',
      text: ['tax', 'code', 'archive', 'S12', ...taxed],
      json: ['tax', 'code', 'archive', 'S12', '--restore', ...taxed],
    });

    // Taking things apart.
    await pin({
      leaf: 'je delete',
      text: ['je', 'delete', sales, '--yes'],
      json: ['je', 'delete', till, '--yes'],
    });
    await answer(['coa', 'create', '--name', 'Old Rent', '--type', 'Operating Expenses']);
    await pin({
      leaf: 'coa merge',
      text: ['coa', 'merge', 'Utilities and Power', 'Rent', '--yes'],
      json: ['coa', 'merge', 'Old Rent', 'Rent', '--yes'],
    });
    await answer(['coa', 'create', '--name', 'Petty Cash', '--type', 'Cash']);
    await answer(['coa', 'create', '--name', 'Spare Expense', '--type', 'Operating Expenses']);
    await pin({
      leaf: 'coa delete',
      text: ['coa', 'delete', 'Petty Cash', '--yes'],
      json: ['coa', 'delete', 'Spare Expense', '--yes'],
    });
    await pin({
      leaf: 'rule delete',
      text: ['rule', 'delete', rentRule!, '--yes'],
      json: ['rule', 'delete', paperRule!, '--yes'],
    });
    await pin({
      leaf: 'class delete',
      text: ['class', 'delete', 'Retail Sales', '--yes'],
      json: ['class', 'delete', 'Wholesale Sales', '--yes'],
    });
    await pin({
      leaf: 'group delete',
      text: ['group', 'delete', 'Premises Costs', '--yes'],
      json: ['group', 'delete', 'Bank Accounts', '--yes'],
    });
    await pin({
      leaf: 'workspace delete',
      text: ['workspace', 'delete', 'Spare Books', '--yes'],
      json: ['workspace', 'delete', 'Golden Books', '--yes'],
    });

    // Settings and profiles (login checks its token against a real server).
    await pin({
      leaf: 'config set',
      text: ['config', 'set', 'color', 'never'],
      json: ['config', 'set', 'color', 'auto'],
    });
    await pin({ leaf: 'config get', text: ['config', 'get', 'color'] });
    await pin({ leaf: 'config list', text: ['config', 'list'] });
    await pin({ leaf: 'config path', text: ['config', 'path'] });
    const login = (profile: string) => [
      'login',
      '--profile',
      profile,
      '--base-url',
      server.baseUrl,
      '--token-stdin',
    ];
    await pin({
      leaf: 'login',
      text: login('staging'),
      json: login('audit'),
      input: `${server.orgToken}\n`,
    });
    await pin({ leaf: 'profile list', text: ['profile', 'list'] });
    await pin({
      leaf: 'profile use',
      text: ['profile', 'use', 'staging'],
      json: ['profile', 'use', 'audit'],
    });
    await pin({
      leaf: 'logout',
      text: ['logout', '--profile', 'staging'],
      json: ['logout', '--profile', 'audit'],
    });

    // Every leaf is here, but for those that run until stopped.
    const missing = Object.keys(LEAVES).filter(
      (leaf) => !covered.has(leaf) && !(leaf in LONG_RUNNING),
    );
    expect(missing).toEqual([]);
    for (const [leaf, test] of Object.entries(LONG_RUNNING)) {
      const words = leaf
        .split(' ')
        .map((word) => `'${word}'`)
        .join(', ');
      expect(readFileSync(path.join(ROOT, test), 'utf8'), `${test} runs ${leaf}`).toContain(
        `[${words}`,
      );
    }
  }, 120_000);
});
