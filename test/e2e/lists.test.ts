import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhookReceiver.js';

/**
 * Every list command takes `--limit N` and `--all` the same way (the built binary, piped):
 * piped with neither it prints every item; `--limit` cuts and says on stderr how many it left
 * out; `--all` prints every one and says nothing. On a terminal the default is 30.
 */
describe('every list: --limit, --all, piped', () => {
  const home = temporaryHome();
  const books = async (...args: string[]) => {
    const result = await runBooks(args, home.env);
    expect(result.code, `books ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  /** What each list holds after the setup: at least three items each. */
  const lists: Record<string, string[]> = {
    workspaces: ['workspace', 'list'],
    entities: ['sandbox', 'entity', 'list'],
    classes: ['class', 'list'],
    rules: ['rule', 'list'],
    accounts: ['coa', 'list'],
    groups: ['group', 'list'],
    entries: ['je', 'list'],
    transactions: ['transactions', 'list'],
    'webhook endpoints': ['sandbox', 'webhook', 'list'],
    'webhook attempts': ['sandbox', 'webhook', 'attempts'],
    log: ['log'],
  };

  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // Deliveries that succeed at once: a failed one is tried again 5 s later, and a list taken
    // twice could then differ by the attempt made in between.
    receiver = await startReceiver();
    for (const name of ['Acme', 'Birch', 'Cedar']) await books('workspace', 'create', name);
    for (const name of ['North', 'South', 'West'])
      await books('sandbox', 'entity', 'create', name, '-w', 'Acme', '--start-date', '2026-01-01');
    await books('use', '-w', 'Acme', '-e', 'North');
    for (const label of ['Retail', 'Wholesale', 'Online']) await books('class', 'create', label);
    for (const name of ['Premises', 'Banks', 'Staff'])
      await books('group', 'create', '--name', name, '--type', 'Operating Expenses');
    for (const [name, type] of [
      ['Checking', 'Cash'],
      ['Rent', 'Operating Expenses'],
      ['Sales', 'Income'],
    ])
      await books('coa', 'create', '--name', name!, '--type', type!);
    for (const word of ['rent', 'lease', 'landlord'])
      await books(
        'rule',
        'create',
        '--when',
        `description_contains=${word}`,
        '--then',
        'account_id=Rent',
      );
    for (const day of ['05', '06', '07'])
      await books(
        'je',
        'create',
        '--date',
        `2026-01-${day}`,
        '--debit',
        'Checking=10',
        '--credit',
        'Sales=10',
      );
    for (const name of ['a', 'b', 'c'])
      await books(
        'sandbox',
        'webhook',
        'add',
        `${receiver.url}/${name}`,
        '--event',
        'feed.connection.disconnected',
      );
    const connected = await books(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Chase',
      '--account',
      'Chase Checking:bank',
      '--json',
    );
    const connection = JSON.parse(connected.stdout).connection;
    // Three disconnections: three deliveries to each endpoint.
    for (let i = 0; i < 3; i += 1) {
      await books('sandbox', 'feed', 'break', connection.id, '--error', 'mfa_required');
      await books('sandbox', 'feed', 'reconnect', connection.id);
    }
    const statement = path.join(home.home, 'statement.csv');
    writeFileSync(
      statement,
      'date,amount,description\n2026-02-03,-1200.00,Rent\n2026-02-04,-12.00,Fee\n2026-02-05,300.00,Refund\n',
    );
    await books('sandbox', 'feed', 'push', connection.financialAccounts[0].id, statement);
    const endpoints = JSON.parse((await books('sandbox', 'webhook', 'list', '--json')).stdout);
    lists['webhook attempts']!.push(endpoints[0].id);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    home.cleanup();
  });

  /** The data rows of a piped (TSV) list. */
  const rows = (stdout: string) => stdout.trimEnd().split('\n').slice(1);

  it.each(Object.keys(lists))(
    '%s',
    async (name) => {
      const args = lists[name]!;
      const everything = await books(...args);
      const total = rows(everything.stdout).length;
      expect(total, everything.stdout).toBeGreaterThanOrEqual(3);
      expect(everything.stderr).toBe('');

      const all = await books(...args, '--all');
      expect(all.stdout).toBe(everything.stdout);
      expect(all.stderr).toBe('');

      const two = await books(...args, '--limit', '2');
      expect(rows(two.stdout)).toHaveLength(2);
      expect(two.stderr).toBe(`books: showing 2 of ${total}; use --all for every one\n`);

      const json = await books(...args, '--limit', '2', '--json');
      expect(JSON.parse(json.stdout)).toHaveLength(2);

      const bad = await runBooks([...args, '--limit', '0'], home.env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--limit must be a whole number ≥ 1, not "0"');
    },
    60_000,
  );

  it('on a terminal the default is 30', async () => {
    const total = rows((await books('log', '--all')).stdout).length;
    expect(total).toBeGreaterThan(30);
    const result = await runCli(['log'], { env: home.env, tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`books: showing 30 of ${total}; use --all for every one`);
  });
});
