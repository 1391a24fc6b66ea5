import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { BOOKS_BIN, temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { expectGolden } from '../helpers/golden.js';

/**
 * The messages a user meets when something is wrong or worth saying, one invocation each,
 * pinned in test/golden/cli/messages.txt; and a scan of the sources proving that every message
 * of the CLI, the import pipeline and the client is pinned by some test or golden.
 */

const clock: Clock = { now: () => new Date('2026-03-15T12:00:00Z'), sleep: async () => undefined };
const ROOT = path.resolve(import.meta.dirname, '../..');
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Case {
  /** What the case shows. */
  title: string;
  args: string[];
  input?: string;
  tty?: boolean;
  /** Through the built binary: parsing on the CSV thread runs only from the build. */
  binary?: boolean;
}

describe('what books says when something is off', () => {
  const home = temporaryHome();
  const file = (name: string, content: string) => {
    const where = path.join(home.home, name);
    mkdirSync(path.dirname(where), { recursive: true });
    writeFileSync(where, content);
    return where;
  };
  const run = async (c: Case) => {
    if (c.binary) {
      const result = spawnSync(process.execPath, [BOOKS_BIN, ...c.args], {
        env: home.env,
        encoding: 'utf8',
        input: c.input ?? '',
      });
      return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    }
    return runCli(c.args, {
      env: home.env,
      // Every question asked on a terminal is answered no (or with nothing).
      services: {
        clock,
        questions: { input: async () => '', password: async () => '', confirm: async () => false },
      },
      ...(c.input !== undefined && { input: c.input }),
      ...(c.tty && { tty: true }),
    });
  };
  const names = new Map<string, string>();
  const stable = (text: string) =>
    text
      .replaceAll(home.home, '<home>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (id === MISSING) return id;
        if (!names.has(id)) names.set(id, `<id ${names.size + 1}>`);
        return names.get(id)!;
      })
      // The platform's times (with milliseconds), not the examples in messages.
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>');
  afterAll(() => home.cleanup());

  const before: Case[] = [
    { title: 'no workspace chosen yet', args: ['coa', 'list'] },
    {
      title: 'a dry run with no entity chosen checks the file alone',
      args: [
        'je',
        'import',
        '--dry-run',
        // (written below, before the cases run)
        path.join(home.home, 'alone.csv'),
      ],
      binary: true,
    },
  ];

  beforeAll(async () => {
    file(
      'alone.csv',
      'date,account,debit,credit\n2026-01-05,Cash,10.00,\n2026-01-05,Sales,,10.00\n',
    );
  });

  it('pins each message in its situation', async () => {
    const sections: string[] = [];
    const pin = async (c: Case) => {
      const result = await run(c);
      sections.push(
        stable(
          `## ${c.title}\n$ books ${c.args.join(' ')}\nexit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
        ),
      );
    };
    const setup = async (args: string[]) => {
      const result = await runCli(args, { env: home.env, services: { clock } });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result.stdout;
    };
    for (const c of before) await pin(c);

    await setup(['workspace', 'create', 'Msg Books', '--timezone', 'UTC']);
    await setup(['workspace', 'create', 'Twin', '--timezone', 'UTC']);
    await setup(['workspace', 'create', 'Twin', '--timezone', 'UTC']);
    await setup(['sandbox', 'entity', 'create', 'Shop', '-w', 'Msg Books']);
    await setup([
      'sandbox',
      'entity',
      'create',
      'Migrating',
      '-w',
      'Msg Books',
      '--start-date',
      '2025-01-01',
    ]);
    await setup(['use', '-w', 'Msg Books', '-e', 'Shop']);
    await setup(['coa', 'create', '--name', 'Cash', '--type', 'Cash']);
    await setup(['coa', 'create', '--name', 'Sales', '--type', 'Income']);
    await setup(['group', 'create', '--name', 'Premises', '--type', 'Operating Expenses']);
    const ledger = file(
      'ledger.csv',
      'date,entry,account,account_type,debit,credit\n2025-01-02,1,Checking,Cash,500.00,\n2025-01-02,1,Owner Equity,Equity,,500.00\n',
    );
    const ledgerMore = file(
      'ledger-more.csv',
      'date,entry,account,account_type,debit,credit\n2025-01-03,2,Checking,Cash,50.00,\n2025-01-03,2,Owner Equity,Equity,,50.00\n',
    );
    await setup([
      'migrate',
      'run',
      ledger,
      '-e',
      'Migrating',
      '--create-missing-accounts',
      '--no-finalize',
    ]);
    // 150 entries (2 batches) imported, then the file cut to its first 100 (1 batch).
    const entries = Array.from(
      { length: 150 },
      (_, i) => `2026-01-07,C${i},Cash,${i + 1}.00,\n2026-01-07,C${i},Sales,,${i + 1}.00\n`,
    );
    const shortened = file('cut.csv', `date,entry,account,debit,credit\n${entries.join('')}`);
    await setup(['je', 'import', shortened]);
    file('cut.csv', `date,entry,account,debit,credit\n${entries.slice(0, 100).join('')}`);

    // A bank feed on Cash (the chart's own account, linked), two lines in, excluded so that
    // nothing waits; then (a case) the coffee of another export of those days a day later, held.
    await setup(['sandbox', 'feed', 'connect', '--bank', 'Msg Bank', '--account', 'Cash']);
    await setup([
      'transactions',
      'import',
      'Cash',
      file(
        'coffee.csv',
        'Date,Description,Amount\n2026-01-05,COFFEE SHOP,-3.50\n2026-01-07,NEWSAGENT,-1.20\n',
      ),
    ]);
    for (const line of JSON.parse(await setup(['transactions', 'list', '--json'])) as {
      id: string;
    }[])
      await setup(['transactions', 'categorize', line.id, '--exclude']);
    mkdirSync(path.join(home.home, 'unlinked'), { recursive: true });
    file('unlinked/plain.csv', 'Date,Description,Amount\n2026-01-08,TEA,-2.00\n');

    const cases: Case[] = [
      // The first month: a held line, setup that links, what a statement lacks.
      {
        title: 'a line of another export a day later, held as a possible duplicate',
        args: [
          'transactions',
          'import',
          'Cash',
          file('coffee-again.csv', 'Date,Description,Amount\n2026-01-06,Coffee Shop Ltd,-3.50\n'),
        ],
      },
      { title: 'the review with a held line', args: ['transactions', 'review'], tty: true },
      {
        title: '--not-duplicate with a decision that leaves it out',
        args: ['transactions', 'categorize', 'R-1', '--not-duplicate', '--exclude'],
      },
      {
        title: 'a feed to an account the chart does not have, of no kind',
        args: ['sandbox', 'feed', 'connect', '--bank', 'Msg Bank', '--account', 'Nowhere'],
      },
      {
        title: 'a feed to an income account',
        args: ['sandbox', 'feed', 'connect', '--bank', 'Msg Bank', '--account', 'Sales'],
      },
      {
        title: 'a feed to a bank account as a card',
        args: ['sandbox', 'feed', 'connect', '--bank', 'Msg Bank', '--account', 'Cash:credit_card'],
      },
      {
        title: "a chart's codes into a standard chart",
        args: [
          'coa',
          'import',
          file('codes.csv', 'code,name,type\n1100,Debtors,Accounts Receivable\n'),
        ],
      },
      {
        title: 'an entry without its day',
        args: ['je', 'create', '--debit', 'Cash=1', '--credit', 'Sales=1'],
      },
      {
        title: 'balances given for a statement that states its own',
        args: [
          'reconcile',
          'Cash',
          file('stated.csv', 'Date,Description,Amount,Balance\n2026-01-10,TEA,-2.00,98.00\n'),
          '--closing-balance',
          '98',
        ],
      },
      {
        title: 'a statement directory with a file that names no account, never reconciled',
        args: [
          'close',
          'review',
          '--period',
          '2026-01',
          '--statements',
          path.join(home.home, 'unlinked'),
        ],
      },
      { title: 'a day order that is none', args: ['config', 'set', 'date-format', 'YYYY/DD/MM'] },
      {
        title: 'a layout saved with nothing to keep',
        args: [
          'statement',
          'show',
          file('keep.csv', 'Date,Description,Amount\n2026-01-10,TEA,-2.00\n'),
          '--save-layout',
          'Plain',
        ],
      },
      // Where a command works, and on what.
      { title: 'a name two workspaces share', args: ['workspace', 'get', 'Twin'] },
      {
        title: 'the local platform, said with --verbose',
        args: ['workspace', 'list', '--verbose'],
      },
      { title: 'an entity the workspace lacks', args: ['coa', 'list', '-e', 'Nowhere'] },
      { title: 'a profile that does not exist', args: ['workspace', 'list', '--profile', 'nope'] },
      {
        title: 'a platform nobody answers at',
        args: ['workspace', 'list', '--base-url', 'http://127.0.0.1:9', '--token', 'x'],
      },
      { title: 'use without anything to use', args: ['use'] },
      // Confirmations.
      {
        title: 'answering no to a confirmation',
        args: ['workspace', 'delete', 'Msg Books'],
        tty: true,
      },
      // Lists and the log.
      { title: 'a --limit that is not a count', args: ['je', 'list', '--limit', '0'] },
      {
        title: 'a comparison reports do not make',
        args: ['report', 'pl', '--from', 'ytd', '--to', 'ytd', '--compare', 'last-decade'],
      },
      { title: 'a shell books writes no completion for', args: ['completion', 'tcsh'] },
      { title: 'a pack with no period', args: ['report', 'pack'] },
      {
        title: 'a pack given both a period and dates',
        args: ['report', 'pack', '--period', '2026-01', '--from', '2026-01-01'],
      },
      {
        title: 'a pack on a basis that is none',
        args: ['report', 'pack', '--period', '2026-01', '--basis', 'modified'],
      },
      {
        title: 'a pack in a format not written',
        args: ['report', 'pack', '--period', '2026-01', '--format', 'docx'],
      },
      {
        title: 'a pack on paper it does not print',
        args: ['report', 'pack', '--period', '2026-01', '--paper', 'tabloid'],
      },
      { title: 'a log --limit that is not a count', args: ['log', '--limit', '0'] },
      // Settings and profiles.
      { title: 'a setting never set', args: ['config', 'get', 'base-url'] },
      { title: 'a setting that does not exist', args: ['config', 'get', 'nope'] },
      { title: 'a token is never printed', args: ['config', 'get', 'token'] },
      { title: 'a setting chosen elsewhere', args: ['config', 'set', 'workspace', 'x'] },
      { title: 'a setting saved by login', args: ['config', 'set', 'token', 'x'] },
      { title: 'a profile that does not exist', args: ['config', 'set', 'profile', 'x'] },
      { title: 'a value a setting does not take', args: ['config', 'set', 'color', 'pink'] },
      {
        title: 'a base URL that is not one',
        args: ['workspace', 'list', '--base-url', 'ht!tp://x', '--token', 't'],
      },
      {
        title: 'a date range that ends before it starts',
        args: ['report', 'pl', '--from', '2025-03-01', '--to', '2025-01-01'],
      },
      { title: 'using a profile that does not exist', args: ['profile', 'use', 'nope'] },
      { title: 'logging out of nothing', args: ['logout', '--profile', 'nobody'] },
      { title: 'login without a base URL', args: ['login', '--token-stdin'], input: 'x\n' },
      {
        title: 'login without a terminal or --token-stdin',
        args: ['login', '--base-url', 'http://127.0.0.1:9'],
      },
      {
        title: 'login with an empty token',
        args: ['login', '--base-url', 'http://127.0.0.1:9', '--token-stdin'],
        input: '\n',
      },
      {
        title: 'serve on a file and in memory at once',
        args: ['serve', '--db', 'x.sqlite', '--memory'],
      },
      // Reports and entries.
      {
        title: 'a report without its period',
        args: ['report', 'pl', '--from', '2026-01-01'],
      },
      {
        title: 'a report on an unknown basis',
        args: ['report', 'pl', '--from', '2026-01-01', '--to', '2026-01-31', '--basis', 'nope'],
      },
      {
        title: 'an entry without a date',
        args: ['je', 'create', '--debit', 'Cash=1', '--credit', 'Sales=1'],
      },
      {
        title: 'an entry on an unknown basis',
        args: [
          'je',
          'create',
          '--date',
          '2026-01-05',
          '--debit',
          'Cash=1',
          '--credit',
          'Sales=1',
          '--basis',
          'nope',
        ],
      },
      {
        title: 'a line without its amount',
        args: ['je', 'create', '--date', '2026-01-05', '--debit', 'Cash'],
      },
      {
        title: 'an entry of one line',
        args: ['je', 'create', '--date', '2026-01-05', '--debit', 'Cash=1'],
      },
      { title: 'an update that changes nothing', args: ['je', 'update', MISSING] },
      {
        title: 'an update to a date that is not one',
        args: ['je', 'update', MISSING, '--date', '2026-13-01'],
      },
      // Imports.
      { title: 'an import on an unknown basis', args: ['je', 'import', ledger, '--basis', 'nope'] },
      { title: 'an unknown export format', args: ['je', 'import', ledger, '--format', 'xls'] },
      {
        title: 'an unknown date format',
        args: ['je', 'import', ledger, '--date-format', 'YYYY/DD/MM'],
      },
      { title: 'an unknown encoding', args: ['je', 'import', ledger, '--encoding', 'klingon'] },
      {
        title: 'an unknown way to post DATEV VAT',
        args: ['je', 'import', ledger, '--datev-vat', 'net'],
      },
      { title: 'an unknown DATEV chart', args: ['je', 'import', ledger, '--skr', '05'] },
      {
        title: 'an opening date that is not a day',
        args: ['je', 'import', ledger, '--opening-date', '31.12.2025'],
      },
      {
        title: 'too many batches in flight',
        args: ['je', 'import', ledger, '--concurrency', '99'],
      },
      {
        title: 'a file with no entries',
        args: ['je', 'import', file('empty.csv', 'date,account,debit,credit\n')],
      },
      {
        title: 'accounts the chart lacks, without --create-missing-accounts',
        args: ['je', 'import', ledger],
      },
      {
        title: 'an amount past the largest',
        args: [
          'je',
          'import',
          file(
            'huge.csv',
            'date,account,debit,credit\n2026-01-05,Cash,1000000000000.00,\n2026-01-05,Sales,,1000000000000.00\n',
          ),
        ],
      },
      {
        title: 'an empty entry cell',
        args: [
          'je',
          'import',
          file(
            'noentry.csv',
            'date,entry,account,debit,credit\n2026-01-05,,Cash,1.00,\n2026-01-05,,Sales,,1.00\n',
          ),
        ],
      },
      {
        title: 'a receipt of what each entry became',
        args: [
          'je',
          'import',
          file(
            'receipted.csv',
            'date,entry,account,debit,credit\n2026-01-06,R1,Cash,2.00,\n2026-01-06,R1,Sales,,2.00\n',
          ),
          '--receipt',
          path.join(home.home, 'receipt.csv'),
        ],
      },
      {
        title: 'a file cut shorter than what an earlier run of it sent',
        args: ['je', 'import', shortened],
      },
      {
        title: 'an open migration, continued',
        args: ['migrate', 'run', ledgerMore, '-e', 'Migrating', '--no-finalize'],
      },
      { title: 'no migration to show', args: ['migrate', 'status'] },
      // The chart, groups and rules.
      {
        title: 'a chart file with no accounts',
        args: ['coa', 'import', file('nochart.csv', 'name,type\n')],
      },
      { title: 'a move without a group', args: ['coa', 'move', 'Cash'] },
      { title: 'a group update that changes nothing', args: ['group', 'update', 'Premises'] },
      { title: 'a rule without conditions', args: ['rule', 'create'] },
      { title: 'a rule update that changes nothing', args: ['rule', 'update', MISSING] },
      // The sandbox.
      { title: 'an entity update that changes nothing', args: ['sandbox', 'entity', 'update'] },
      {
        title: 'an entity start date that is not a date',
        args: ['sandbox', 'entity', 'update', '--start-date', 'soon'],
      },
      { title: 'a feed without accounts', args: ['sandbox', 'feed', 'connect', '--bank', 'Chase'] },
      {
        title: 'a feed account of an unknown kind',
        args: ['sandbox', 'feed', 'connect', '--bank', 'Chase', '--account', 'Savings:vault'],
      },
      {
        title: 'an unknown feed error',
        args: ['sandbox', 'feed', 'break', MISSING, '--error', 'nope'],
      },
      {
        title: 'a statement that cannot be read',
        args: ['sandbox', 'feed', 'push', MISSING, path.join(home.home, 'absent.csv')],
      },
      {
        title: 'a statement without the columns',
        args: ['sandbox', 'feed', 'push', MISSING, file('badhead.csv', 'when,how much\n')],
      },
      {
        title: 'a statement without transactions',
        args: ['sandbox', 'feed', 'push', MISSING, file('notx.csv', 'date,amount,description\n')],
      },
      {
        title: 'a retry --since that is not a time',
        args: ['sandbox', 'webhook', 'retry', MISSING, '--since', 'yesterday'],
      },
      {
        title: 'a retry of one message and of every failed one at once',
        args: ['sandbox', 'webhook', 'retry', MISSING, MISSING, '--since', '2026-01-01'],
      },
      // Webhooks.
      {
        title: 'a forward to what is not a URL',
        args: [
          'webhook',
          'listen',
          '--secret',
          'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          '--forward-to',
          'ftp://x',
        ],
      },
      {
        title: 'a capture that cannot be read',
        args: [
          'webhook',
          'verify',
          '--secret',
          'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          '--headers',
          path.join(home.home, 'absent.txt'),
          '--body',
          path.join(home.home, 'absent.json'),
        ],
      },
      { title: 'an export into a directory that holds files', args: ['export', home.home] },
      {
        title: 'an import at a rate that is not a number',
        args: ['import', home.home, '--rate', 'fast'],
      },
      { title: 'an import of a directory books export did not write', args: ['import', home.home] },
      {
        title: "an import of another program's manifest",
        args: [
          'import',
          path.dirname(file('other-export/manifest.json', '{"format":"ledger-dump","version":3}')),
        ],
      },
      // Bank statements and the month-end close.
      {
        title: 'a statement map that names no field',
        args: [
          'statement',
          'show',
          file('bank.csv', 'Date,Amount\n2026-10-01,5.00\n'),
          '--map',
          'when=Date',
        ],
      },
      {
        title: 'a statement encoding books does not know',
        args: ['statement', 'show', path.join(home.home, 'bank.csv'), '--encoding', 'klingon'],
      },
      { title: 'a close of what is not a month', args: ['close', 'review', '--period', '2026-13'] },
      {
        title: 'statements in what is not a directory',
        args: [
          'close',
          'review',
          '--period',
          '2026-10',
          '--statements',
          path.join(home.home, 'bank.csv'),
        ],
      },
      {
        title: 'statements in a directory that is not there',
        args: [
          'close',
          'review',
          '--period',
          '2026-10',
          '--statements',
          path.join(home.home, 'nowhere'),
        ],
      },
      {
        title: 'statements that name no bank account',
        args: [
          'close',
          'review',
          '--period',
          '2026-10',
          '--statements',
          path.dirname(
            file('qif-only/register.qif', '!Type:Bank\nD10/02/2026\nT-5.00\nPShop\n^\n'),
          ),
        ],
      },
      {
        title: 'a flux amount that is not an amount',
        args: ['config', 'set', 'flux-amount', 'lots'],
      },
      { title: 'a flux percent out of range', args: ['config', 'set', 'flux-percent', '0'] },
      {
        title: 'suspense accounts without a name',
        args: ['config', 'set', 'suspense-accounts', ' , '],
      },
      {
        title: "a flux amount the config file's editor wrote wrong",
        args: ['close', 'review', '--period', '2026-10'],
      },
      // Deciding bank transactions: what is checked before any request.
      {
        title: 'categorize --auto given ids',
        args: ['transactions', 'categorize', '--auto', 'R-1'],
      },
      { title: 'categorize with nothing named', args: ['transactions', 'categorize', '--exclude'] },
      {
        title: 'a class with another decision than an account',
        args: ['transactions', 'categorize', 'R-1', '--exclude', '--class', 'Retail'],
      },
      {
        title: 'a dry run of one decision',
        args: ['transactions', 'categorize', 'R-1', '--exclude', '--dry-run'],
      },
      {
        title: 'a confidence out of range',
        args: ['transactions', 'categorize', '--auto', '--min-confidence', '2'],
      },
      {
        title: 'a split part without its amount',
        args: ['transactions', 'categorize', 'R-1', '--split', 'Sales'],
      },
      {
        title: 'a transaction nobody has',
        args: ['transactions', 'categorize', 'R-1', '--exclude'],
      },
      { title: '--auto with nothing waiting', args: ['transactions', 'categorize', '--auto'] },
      {
        title: 'suggestions for what does not wait',
        args: ['transactions', 'list', '--suggest', '--status', 'categorized'],
      },
      { title: 'the review with nothing waiting', args: ['transactions', 'review'], tty: true },
      { title: 'the review without a terminal', args: ['transactions', 'review'] },
      {
        title: "the summary's confidence out of range",
        args: ['transactions', 'summary', '--min-confidence', 'high'],
      },
      // A broken config file, last: every later command would meet it.
      { title: 'a config file that is not JSON', args: ['config', 'list'] },
    ];
    for (const c of cases) {
      if (c.title === "a flux amount the config file's editor wrote wrong") {
        const config = path.join(home.home, '.config/books/config.json');
        writeFileSync(
          config,
          JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), fluxAmount: 'lots' }),
        );
      }
      if (c.title === 'a config file that is not JSON') {
        writeFileSync(path.join(home.home, '.config/books/config.json'), '{ not json');
      }
      await pin(c);
    }
    expectGolden('cli/messages.txt', sections.join('\n'));
  }, 120_000);
});

/** A message's longest stretch of literal text: what a test or golden must contain. */
function probeOf(template: string): string | undefined {
  const literal = template
    .split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/)
    .map((part) =>
      part
        .replace(/\\n/g, '\n')
        .replace(/\\(['"`\\])/g, '$1')
        .trim(),
    )
    // A stretch cut out of a nested template is not literal text.
    .filter((part) => part.length >= 12 && !part.includes('${'));
  return literal.sort((a, b) => b.length - a.length)[0];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Messages that no test can reach without a platform that behaves otherwise than ours (they
 * are for hosted platforms), with why.
 */
const UNREACHABLE: Record<string, string> = {
  'the platform answered no return':
    "a platform whose streamed return does not begin with its figures (books' writes them first; test/e2e/vatReturn.test.ts reads one)",
  "this platform keeps no tax codes: they are an addition of books' own platform":
    'a platform without the tax routes (a hosted one)',
  'does not list the entities of workspace': 'a platform without the sandbox routes (a hosted one)',
  'forwarding failed:':
    'a forward target that fails mid-request; test/e2e/webhooks.test.ts forwards',
  "from the export's: the differences are above":
    'a platform whose ledger, after every entry of an export went in whole into an empty entity, disagrees with them; test/e2e/exportImport.test.ts compares them',
  'does not list the entities of a workspace (no sandbox control plane)':
    'a platform without the sandbox routes (a hosted one)',
  'the platform has no lock endpoint (no sandbox control plane)':
    'a platform without the sandbox routes (a hosted one): it locks periods in its own web app',
  'will be sent to endpoint':
    'a failed message to retry by id: test/e2e/webhooks.test.ts retries one',
};

describe('every message is pinned', () => {
  it('by some test or golden, or is listed here as unreachable with why', () => {
    const pinned = filesUnder(path.join(ROOT, 'test'))
      .filter((f) => /\.(ts|txt|json|csv)$/.test(f) && f !== import.meta.filename)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const sources = ['src/cli', 'src/migrate', 'src/formats', 'src/client'].flatMap((dir) =>
      filesUnder(path.join(ROOT, dir)).filter((f) => f.endsWith('.ts')),
    );
    const said =
      /(?:new (?:UsageError|UserError)\(|\.(?:wrote|note)\(|problems\.push\(|message: )\s*(['`"])((?:\\.|(?!\1)[^\\])*)\1/g;
    const unpinned: string[] = [];
    let messages = 0;
    for (const source of sources) {
      for (const [, , template] of readFileSync(source, 'utf8').matchAll(said)) {
        const probe = probeOf(template!);
        if (probe === undefined) continue;
        messages += 1;
        if (pinned.includes(probe)) continue;
        if (Object.keys(UNREACHABLE).some((known) => probe.includes(known))) continue;
        unpinned.push(`${path.relative(ROOT, source)}: ${probe}`);
      }
    }
    expect(messages).toBeGreaterThan(100);
    expect(unpinned).toEqual([]);
  });
});
