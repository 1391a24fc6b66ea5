import { pick } from '../../src/cli/context.js';
import { describe, expect, it } from 'vitest';
import { parseCreate as parseAccount } from '../../src/cli/commands/coa/shared.js';
import { parseCreate as parseEntry } from '../../src/cli/commands/je/shared.js';
import { parse as parseGl } from '../../src/cli/commands/report/gl.js';
import { parseReportQuery } from '../../src/cli/commands/report/shared.js';
import { parseUpdate } from '../../src/cli/commands/sandbox/entity/shared.js';
import { parseServeOptions } from '../../src/cli/commands/serve.js';
import { parseVerify } from '../../src/cli/commands/webhook/verify.js';
import { parse as parseWorkspace } from '../../src/cli/commands/workspace/create.js';
import { parseDateOption } from '../../src/cli/terminal/dates.js';
import { displayAmount, plainAmount } from '../../src/cli/render/statements.js';
import { resolveTarget } from '../../src/cli/connection/target.js';
import { rangeOfWord } from '../../src/core/periods.js';

describe('relative dates', () => {
  it.each([
    ['this-month', { startDate: '2026-11-01', endDate: '2026-11-30' }],
    ['last-month', { startDate: '2026-10-01', endDate: '2026-10-31' }],
    ['this-quarter', { startDate: '2026-10-01', endDate: '2026-12-31' }],
    ['last-quarter', { startDate: '2026-07-01', endDate: '2026-09-30' }],
    ['this-year', { startDate: '2026-01-01', endDate: '2026-12-31' }],
    ['last-year', { startDate: '2025-01-01', endDate: '2025-12-31' }],
    ['ytd', { startDate: '2026-01-01', endDate: '2026-11-21' }],
  ] as const)('%s as of 2026-11-21', (word, range) => {
    expect(rangeOfWord(word, '2026-11-21')).toEqual(range);
  });

  it('crosses year boundaries in January and in the first quarter', () => {
    expect(rangeOfWord('last-month', '2026-01-15')).toEqual({
      startDate: '2025-12-01',
      endDate: '2025-12-31',
    });
    expect(rangeOfWord('last-quarter', '2026-02-01')).toEqual({
      startDate: '2025-10-01',
      endDate: '2025-12-31',
    });
    expect(rangeOfWord('this-month', '2024-02-10').endDate).toBe('2024-02-29');
  });

  it('--from takes the start of a word, --to its end; dates pass through; nonsense is a usage error', () => {
    expect(parseDateOption('last-month', 'from', '2026-03-10')).toBe('2026-02-01');
    expect(parseDateOption('last-month', 'to', '2026-03-10')).toBe('2026-02-28');
    expect(parseDateOption('2026-05-05', 'to', '2026-03-10')).toBe('2026-05-05');
    expect(() => parseDateOption('yesterday', 'from', '2026-03-10')).toThrow(
      '--from "yesterday" is not a day in YYYY-MM-DD (or one of this-month',
    );
    expect(() => parseDateOption('2026-02-30', 'to', '2026-03-10')).toThrow(
      '--to 2026-02-30 is no day: February 2026 has 28 days',
    );
    expect(() => parseDateOption('25/11/2026', 'to', '2026-03-10')).toThrow(
      '--to 25/11/2026 is not a day in YYYY-MM-DD: 2026-11-25?',
    );
    expect(() => parseDateOption('03/04/2026', 'to', '2026-03-10')).toThrow(
      '--to 03/04/2026 is not a day in YYYY-MM-DD: 2026-04-03 or 2026-03-04?',
    );
  });
});

describe('argv → options', () => {
  it('report: dates, basis and grouping', () => {
    expect(parseReportQuery({ from: 'ytd', to: 'ytd', by: 'month' }, '2026-04-15')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-04-15',
      ledgerBasis: 'cash',
      groupBy: 'month',
    });
    expect(() => parseReportQuery({ from: '2026-01-01' }, '2026-04-15')).toThrow(
      '--from and --to are required',
    );
    expect(() => parseReportQuery({ from: 'ytd', to: 'ytd', basis: 'tax' }, '2026-04-15')).toThrow(
      '--basis must be cash or accrual',
    );
    expect(() => parseReportQuery({ from: 'ytd', to: 'ytd', by: 'day' }, '2026-04-15')).toThrow(
      '--by must be one of',
    );
    expect(() => parseGl({ from: 'ytd', to: 'ytd', by: 'month' }, '2026-04-15')).toThrow(
      'the general ledger takes no --by',
    );
    expect(
      parseGl({ from: '2026-01-01', to: '2026-01-31', account: '1000' }, '2026-04-15'),
    ).toMatchObject({
      account: '1000',
    });
  });

  it('coa create: type names case-insensitively; name and type required', () => {
    expect(parseAccount({ name: 'Rent', type: 'operating expenses' })).toEqual({
      name: 'Rent',
      type: 'Operating Expenses',
    });
    expect(() => parseAccount({ type: 'Cash' })).toThrow('--name is required');
    expect(() => parseAccount({ name: 'x', type: 'Assets' })).toThrow('--type must be one of Cash');
  });

  it('je create: --debit/--credit ACCOUNT=AMOUNT in cents, thousands separators allowed', () => {
    expect(
      parseEntry({
        date: '2026-01-05',
        debit: ['Checking=5,000.10'],
        credit: ['4000=5000.1'],
        memo: 'm',
      }),
    ).toEqual({
      date: '2026-01-05',
      ledgerBasis: 'cash',
      memo: 'm',
      lines: [
        { account: 'Checking', side: 'debit', cents: 500010 },
        { account: '4000', side: 'credit', cents: 500010 },
      ],
    });
    expect(
      parseEntry({ date: '2026-01-05', debit: ['Cash=Sales=1'], credit: ['a=1'] }).lines[0]!
        .account,
    ).toBe('Cash=Sales');
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=1'] })).toThrow('at least two lines');
    expect(() => parseEntry({ debit: ['a=1'], credit: ['b=1'] })).toThrow('--date is required');
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=1.005'], credit: ['b=1'] })).toThrow(
      '--debit a=1.005: the amount "1.005" has more than 2 decimals',
    );
    // issue 16: `12,34` posted 1,234.00 and `1,2,3` posted 123.00; zero-padded amounts failed.
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=12,34'], credit: ['b=1'] })).toThrow(
      '--debit a=12,34: the amount "12,34" is ambiguous: "," could separate thousands or decimals (with --decimal-comma it reads 12.34)',
    );
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=1,2,3'], credit: ['b=1'] })).toThrow(
      '--debit a=1,2,3: the amount "1,2,3" is not an amount: group digits in threes',
    );
    const padded = parseEntry({ date: '2026-01-05', debit: ['a=0001.50'], credit: ['b=$1.50'] });
    expect(padded.lines.map((l) => l.cents)).toEqual([150, 150]);
    const comma = parseEntry({
      date: '2026-01-05',
      debit: ['a=1.234,56'],
      credit: ['b=12,34'],
      decimalComma: true,
    });
    expect(comma.lines.map((l) => l.cents)).toEqual([123456, 1234]);
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a'], credit: ['b=1'] })).toThrow(
      '--debit takes ACCOUNT=AMOUNT',
    );
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=0'], credit: ['b=1'] })).toThrow(
      '"0" must be a positive amount',
    );
    expect(() => parseEntry({ date: '2026-01-05', debit: ['a=-5'], credit: ['b=1'] })).toThrow(
      '"-5" must be a positive amount',
    );
  });

  it('sandbox entity update and lock: dates or none', () => {
    expect(parseUpdate({ lockDate: '2026-03-31', name: 'X' })).toEqual({
      name: 'X',
      lockDate: '2026-03-31',
    });
    expect(parseUpdate({ lockDate: 'none', startDate: 'none' })).toEqual({
      lockDate: null,
      bookkeepingStartDate: null,
    });
    expect(() => parseUpdate({ lockDate: 'March' })).toThrow(
      '--lock-date "March" is not a day in YYYY-MM-DD',
    );
  });

  it('workspace create: only the platform time zones', () => {
    expect(parseWorkspace('Acme', { timezone: 'UTC' })).toEqual({ name: 'Acme', timezone: 'UTC' });
    expect(() => parseWorkspace('Acme', { timezone: 'Europe/Paris' })).toThrow(
      '--timezone must be one of',
    );
  });

  it('serve: defaults and bounds', () => {
    expect(parseServeOptions({ memory: true }, {})).toMatchObject({
      host: '127.0.0.1',
      port: 4010,
      database: ':memory:',
      rateLimitPerSecond: 100,
    });
    expect(parseServeOptions({ db: '/tmp/x.sqlite', webhookSchedule: '0,1,2' }, {})).toMatchObject({
      database: '/tmp/x.sqlite',
      webhookScheduleSeconds: [0, 1, 2],
    });
    expect(parseServeOptions({}, { HOME: '/home/a' }).database).toBe(
      '/home/a/.local/share/books/platform.sqlite',
    );
  });

  // Commander refuses these first on the command line; the parse functions refuse them too,
  // for any other caller.
  it('serve, webhook verify: what commander checks first is checked again', () => {
    expect(() => parseServeOptions({ db: 'x.sqlite', memory: true }, {})).toThrow(
      '--db and --memory exclude each other',
    );
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(() => parseVerify({ headers: 'h', body: 'b' })).toThrow(
      '--secret whsec_... is required',
    );
    expect(() => parseVerify({ secret, body: 'b' })).toThrow('--headers FILE is required');
    expect(() => parseVerify({ secret, headers: 'h' })).toThrow('--body FILE is required');
  });
});

describe('where it talks to', () => {
  const config = {
    currentProfile: 'work',
    profiles: {
      work: { baseUrl: 'https://work.example', token: 'work-token', workspace: 'w1' },
      other: { baseUrl: 'https://other.example', token: 'other-token' },
      local: { workspace: 'local-w' },
    },
  };

  it('flags beat the environment, which beats the profile, which beats the embedded platform', () => {
    expect(
      resolveTarget(
        { baseUrl: 'https://flag', token: 'flag-token' },
        { BOOKS_BASE_URL: 'https://env', BOOKS_TOKEN: 'env' },
        config,
      ),
    ).toMatchObject({ kind: 'remote', baseUrl: 'https://flag', token: 'flag-token' });
    expect(
      resolveTarget({}, { BOOKS_BASE_URL: 'https://env', BOOKS_TOKEN: 'env-token' }, config),
    ).toMatchObject({ baseUrl: 'https://env', token: 'env-token' });
    expect(resolveTarget({}, {}, config)).toMatchObject({
      kind: 'remote',
      baseUrl: 'https://work.example',
      token: 'work-token',
      profileName: 'work',
    });
    expect(resolveTarget({ profile: 'other' }, {}, config)).toMatchObject({
      baseUrl: 'https://other.example',
    });
    expect(resolveTarget({}, { BOOKS_PROFILE: 'other' }, config)).toMatchObject({
      baseUrl: 'https://other.example',
    });
    expect(resolveTarget({}, {}, { profiles: config.profiles })).toEqual({
      kind: 'embedded',
      profileName: 'local',
      profile: { workspace: 'local-w' },
    });
  });

  it('a base URL without a token is not authenticated (exit 4); an unknown profile a usage error', () => {
    expect(() => resolveTarget({ baseUrl: 'https://x' }, {}, { profiles: {} })).toThrow(
      expect.objectContaining({
        exitCode: 4,
        message: 'no token for https://x: pass --token, set BOOKS_TOKEN, or run books login',
      }),
    );
    expect(() => resolveTarget({ profile: 'nope' }, {}, config)).toThrow(
      expect.objectContaining({ exitCode: 2 }),
    );
  });
});

describe('amounts on screen', () => {
  it.each([
    [1234567.89, '1,234,567.89', '1234567.89'],
    [-1234.5, '(1,234.50)', '-1234.50'],
    [0, '0.00', '0.00'],
    [0.29, '0.29', '0.29'],
    [null, '', ''],
  ])('%s', (amount, display, plain) => {
    expect(displayAmount(amount)).toBe(display);
    expect(plainAmount(amount)).toBe(plain);
  });
});

describe('rule syntax and trees', async () => {
  const { parseWhen, parseThen } = await import('../../src/cli/commands/rule/shared.js');
  const { treeLabels } = await import('../../src/cli/render/tree.js');
  const { parseType } = await import('../../src/cli/commands/group/shared.js');

  it('--when TYPE=VALUE[,VALUE]... and --then TYPE=VALUE', () => {
    expect(parseWhen(['description_contains=uber, lyft', 'direction_is=outflow'])).toEqual([
      { conditionType: 'description_contains', value: ['uber', 'lyft'] },
      { conditionType: 'direction_is', value: ['outflow'] },
    ]);
    expect(parseThen(['account_id=Travel Expense', 'class_id=West'])).toEqual([
      { actionType: 'account_id', reference: 'Travel Expense' },
      { actionType: 'class_id', reference: 'West' },
    ]);
    expect(() => parseWhen(['uber'])).toThrow('--when takes TYPE=VALUE');
    expect(() => parseWhen(['amount_is=,'])).toThrow('--when amount_is= needs at least one value');
    expect(() => parseThen(['tag=x'])).toThrow(
      '--then takes TYPE=VALUE with TYPE one of account_id, class_id',
    );
  });

  it('indents trees by parent, and names account types case-insensitively', () => {
    const items = [
      { id: 'a', parent: null, name: 'Region' },
      { id: 'b', parent: 'a', name: 'West' },
      { id: 'c', parent: 'b', name: 'Oregon' },
      { id: 'd', parent: null, name: 'Dept' },
    ];
    expect(
      treeLabels(
        items,
        (i) => i.id,
        (i) => i.parent,
        (i) => i.name,
      ),
    ).toEqual(['Region', '  West', '    Oregon', 'Dept']);
    expect(parseType('credit cards')).toBe('Credit Cards');
    expect(() => parseType('Banks')).toThrow('--type must be one of');
  });
});

describe('one rule for the names a person types (pick)', () => {
  const entities = [
    { id: '0192f3c4-0000-7000-8000-000000000001', name: 'Main Street Bakery' },
    { id: '0192f3c4-0000-7000-8000-000000000002', name: 'main street bakery ' },
    { id: '0192f3c4-0000-7000-8000-000000000003', name: 'Harbor Café' },
  ];
  const named = (e: { id: string; name: string }) => e;

  it('takes an id, else a name trimmed and in any case', () => {
    expect(pick(entities, entities[2]!.id, 'entity', named)).toBe(entities[2]);
    expect(pick(entities, '  harbor CAFÉ ', 'entity', named)).toBe(entities[2]);
  });

  it('refuses an ambiguous name, listing the candidates (exit 2), and says what is missing (exit 5)', () => {
    expect(() => pick(entities, 'MAIN STREET BAKERY', 'entity', named)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: `"MAIN STREET BAKERY" names 2 entities: "Main Street Bakery" (${entities[0]!.id}), "main street bakery " (${entities[1]!.id}); use the id`,
      }),
    );
    expect(() => pick(entities, 'Nowhere', 'entity', named)).toThrow(
      expect.objectContaining({ exitCode: 5, message: 'no entity "Nowhere" (by id or name)' }),
    );
  });

  it('takes an account’s code before its name', () => {
    const accounts = [
      { id: 'a', code: '1000', name: 'Cash' },
      { id: 'b', code: '2000', name: '1000' },
    ];
    expect(pick(accounts, '1000', 'account', (a) => a).id).toBe('a');
    expect(() => pick(accounts, 'nothing', 'account', (a) => a)).toThrow(
      'no account "nothing" (by id, code or name)',
    );
  });
});
