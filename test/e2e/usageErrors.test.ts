import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseNewEntity, runBooks, temporaryHome } from '../helpers/cli.js';

/**
 * What a user can get wrong on the command line is said before any request (the built binary):
 * exit 2, what was wrong and what is accepted, no stack, and nothing in the audit log, which
 * records every request.
 */
describe('usage errors are found before any request', () => {
  const home = temporaryHome();
  const auditLog = path.join(home.home, '.local/share/books/audit.log');
  const requests = () =>
    existsSync(auditLog) ? readFileSync(auditLog, 'utf8').trim().split('\n').length : 0;
  beforeAll(async () => {
    for (const args of chooseNewEntity('Acme', 'North')) {
      const result = await runBooks(args, home.env);
      expect(result.code, result.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(() => home.cleanup());

  const year = ['--from', '2025-01-01', '--to', '2025-12-31'];
  const cases: [what: string, args: string[], said: string, env?: NodeJS.ProcessEnv][] = [
    [
      '--from after --to',
      ['report', 'pl', '--from', '2025-03-01', '--to', '2025-01-01'],
      '--from 2025-03-01 is after --to 2025-01-01',
    ],
    [
      'a range of words that ends before it starts',
      ['je', 'list', '--from', 'this-year', '--to', 'last-year'],
      '--from this-year (',
    ],
    [
      'a day that does not exist',
      ['report', 'tb', '--from', '2025-02-30', '--to', '2025-03-01'],
      '--from 2025-02-30 is no day: February 2025 has 28 days (or one of this-month',
    ],
    ['a period', ['report', 'pl', ...year, '--by', 'fortnight'], '--by must be one of week'],
    ['a basis', ['report', 'bs', ...year, '--basis', 'tax'], '--basis must be cash or accrual'],
    ['an output', ['workspace', 'list', '--output', 'xml'], '--output must be table, json'],
    ['a time zone', ['workspace', 'create', 'X', '--timezone', 'Mars/Base'], '--timezone must be'],
    ['an account type', ['coa', 'create', '--name', 'X', '--type', 'Cashish'], '--type must be'],
    [
      'a rule condition',
      ['rule', 'create', '--when', 'vendor=x', '--then', 'account_id=x'],
      '--when takes TYPE=VALUE',
    ],
    [
      'an amount that is not one',
      ['je', 'create', '--date', '2025-01-01', '--debit', 'Cash=abc', '--credit', 'Sales=1'],
      'is not an amount',
    ],
    [
      'a decimal comma without --decimal-comma',
      ['je', 'create', '--date', '2025-01-01', '--debit', 'Cash=12,34', '--credit', 'Sales=12,34'],
      '12,34',
    ],
    [
      'a rule amount',
      ['rule', 'create', '--when', 'amount_is=abc', '--then', 'account_id=Rent'],
      '--when amount_is: "abc" is not an amount (a positive decimal such as 12.50; values are separated by commas, so no thousands separators)',
    ],
    [
      'a rule direction',
      ['rule', 'create', '--when', 'direction_is=sideways', '--then', 'account_id=Rent'],
      '--when direction_is takes inflow or outflow, not "sideways"',
    ],
    [
      'a webhook URL',
      ['sandbox', 'webhook', 'add', 'http://example.com/hook'],
      'url must use https:// (plain http:// only for loopback hosts)',
    ],
    [
      'a lock date',
      ['sandbox', 'entity', 'lock', '--date', 'soon'],
      '--date "soon" is not a day in YYYY-MM-DD',
    ],
    ['a limit', ['je', 'list', '--limit', '2.5'], '--limit must be a whole number'],
    ['a concurrency', ['migrate', 'run', 'x.csv', '--concurrency', '0'], '--concurrency must be'],
    ['a missing argument', ['workspace', 'get'], "missing required argument 'workspace'"],
    [
      '--base-url that is not a URL',
      ['workspace', 'list', '--base-url', 'ht!tp://x', '--token', 't'],
      '--base-url "ht!tp://x" is not a URL',
    ],
    [
      'BOOKS_BASE_URL of another scheme',
      ['workspace', 'list'],
      'BOOKS_BASE_URL "ftp://x" uses ftp:',
      { BOOKS_BASE_URL: 'ftp://x', BOOKS_TOKEN: 't' },
    ],
    [
      'a URL with a password in it',
      ['login', '--base-url', 'https://me:secret@books.example.com', '--token-stdin'],
      'holds a user name or password',
    ],
  ];

  it.each(cases)('%s', async (_what, args, said, env) => {
    const before = requests();
    const result = await runBooks(args, { ...home.env, ...env });
    expect(result.stderr).toContain(said);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^books: /);
    expect(result.stderr).not.toMatch(/\n\s+at |a bug/);
    expect(requests()).toBe(before);
  });

  it('a saved profile whose URL is not one', async () => {
    const config = path.join(home.home, '.config/books/config.json');
    const saved = JSON.parse(readFileSync(config, 'utf8'));
    writeFileSync(
      config,
      JSON.stringify({
        ...saved,
        currentProfile: 'office',
        profiles: { ...saved.profiles, office: { baseUrl: 'books.example.com', token: 't' } },
      }),
    );
    const before = requests();
    const result = await runBooks(['workspace', 'list'], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'the base URL of profile "office" "books.example.com" is not a URL',
    );
    expect(requests()).toBe(before);
  });
});
