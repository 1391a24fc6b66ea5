import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveFlagsFor } from '../helpers/backend.js';
import {
  chooseNewEntity,
  runBooks,
  spawnBooks,
  temporaryHome,
  type RunningCli,
  SERVE_TOKEN,
} from '../helpers/cli.js';

/** A generated general ledger: `count` two-line entries over 2025, bank-style descriptions. */
function ledgerCsv(count: number): string {
  const rows = ['entry,date,account,account_type,amount,description'];
  const vendors = [
    ['UBER *TRIP', 'Travel', 'Operating Expenses'],
    ['SQ *BLUE BOTTLE', 'Meals', 'Operating Expenses'],
    ['AMZN Mktp US*', 'Supplies', 'Operating Expenses'],
  ];
  for (let i = 1; i <= count; i += 1) {
    const day = new Date(Date.UTC(2025, 0, 1) + Math.floor((i * 365) / (count + 1)) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const cents = 100 + ((i * 7919) % 250_000);
    const amount = (cents / 100).toFixed(2);
    if (i % 4 === 0) {
      rows.push(`E${i},${day},Checking,Cash,${amount},STRIPE PAYOUT ${i}`);
      rows.push(`E${i},${day},Sales,Income,-${amount},STRIPE PAYOUT ${i}`);
    } else {
      const [description, account, type] = vendors[i % 3]!;
      rows.push(
        `E${i},${day},${account},${type},${amount},${description}${i.toString(36).toUpperCase()}`,
      );
      rows.push(
        `E${i},${day},Checking,Cash,-${amount},${description}${i.toString(36).toUpperCase()}`,
      );
    }
  }
  return `${rows.join('\n')}\n`;
}

describe('books migrate run (the built binary against books serve)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: RunningCli;
  let env: NodeJS.ProcessEnv;
  let baseUrl: string;
  let entityId: string;

  const api = async (method: string, requestPath: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${requestPath}`, {
      method,
      headers: { authorization: `Bearer ${SERVE_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (response.status < 300 ? await response.json() : await response.text()) as any,
    };
  };
  const entryCount = async () =>
    (await api('GET', `/platform/v1/entities/${entityId}/journal-entries?limit=1`)).body.pagination
      .total as number;
  const trialBalance = async () =>
    (
      await api(
        'GET',
        `/platform/v1/entities/${entityId}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
      )
    ).body.report;

  beforeEach(async () => {
    home = temporaryHome();
    server = spawnBooks(
      [
        'serve',
        ...(await serveFlagsFor(['--memory'])),
        '--port',
        '0',
        '--org-token',
        SERVE_TOKEN,
        '--rate-limit',
        '0',
        '--rule-generation-delay',
        '50',
      ],
      home.env,
    );
    baseUrl = /listening on (http:\/\/\S+)/.exec(
      await server.waitForStderr('organization token'),
    )![1]!;
    env = {
      ...home.env,
      BOOKS_BASE_URL: baseUrl,
      BOOKS_TOKEN: SERVE_TOKEN,
      BOOKS_RETRY_BASE_MS: '10',
    };
    for (const args of chooseNewEntity('Migrations', 'Client Co')) {
      expect((await runBooks(args, env)).code).toBe(0);
    }
    entityId = JSON.parse((await runBooks(['sandbox', 'entity', 'get', '--json'], env)).stdout)
      .entity.id;
  }, 60_000);
  afterEach(async () => {
    server.child.kill('SIGTERM');
    await server.result;
    home.cleanup();
  });

  it('migrates a generated 10,000-entry CSV, reconciles exactly, finalizes, and the rules categorize a pending transaction', async () => {
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(10_000));
    const connection = await api('POST', `/sandbox/v1/entities/${entityId}/bank-feed-connections`, {
      bankName: 'Chase',
      accounts: [{ name: 'Chase Checking', kind: 'bank' }],
    });
    const financialAccount = connection.body.connection.financialAccounts[0].id;
    const pending = await api(
      'POST',
      `/sandbox/v1/financial-accounts/${financialAccount}/transactions`,
      {
        transactions: [{ date: '2026-01-05', amount: -18.2, description: 'UBER *TRIP ZZ91' }],
      },
    );
    expect(pending.body.data[0].status).toBe('uncategorized');

    const result = await runBooks(['migrate', 'run', file, '--create-missing-accounts'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '10000 entries of ledger.csv are in the cash ledger (migrated)',
    );
    expect(result.stderr).toContain(
      'reconciled 5 accounts with the entries this import posted, to the cent',
    );
    expect(result.stderr).toMatch(/transaction rules seeded at .* \(\d+ generated\)/);
    expect(await entryCount()).toBe(10_000);
    const sample = (await api('GET', `/platform/v1/entities/${entityId}/journal-entries?limit=1`))
      .body.data[0];
    expect(sample.sourceType).toBe('migration');

    const transactions = await api(
      'GET',
      `/sandbox/v1/workspaces/${JSON.parse((await runBooks(['sandbox', 'entity', 'get', '--json'], env)).stdout).entity.workspaceId}/transactions`,
    );
    const travel = (
      await api('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`)
    ).body.data.find((a: any) => a.name === 'Travel');
    expect(transactions.body.data[0]).toMatchObject({
      status: 'categorized',
      accountId: travel.id,
    });

    const status = await runBooks(['migrate', 'status', '--json'], env);
    expect(JSON.parse(status.stdout).accountingMigration.enrichmentRulesSeededAt).not.toBeNull();
    const again = await runBooks(['migrate', 'run', file], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await entryCount()).toBe(10_000);
  }, 120_000);

  it('--no-finalize leaves it open; then migrate status, migrate merge and migrate finalize', async () => {
    await api('POST', `/sandbox/v1/entities/${entityId}/bank-feed-connections`, {
      bankName: 'Chase',
      accounts: [{ name: 'Chase Checking', kind: 'bank' }],
    });
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(200));
    const run = await runBooks(
      ['migrate', 'run', file, '--create-missing-accounts', '--no-finalize'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('transaction rules seeded');
    expect((await runBooks(['migrate', 'status'], env)).stdout).toMatch(
      /state\s+open \(or generating rules\)/,
    );

    const chart = async () =>
      (await api('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`)).body.data as {
        name: string;
      }[];
    expect((await chart()).map((a) => a.name)).toContain('Checking');
    const merged = await runBooks(
      ['migrate', 'merge', '--source', 'Checking', '--target', 'Chase Checking', '--yes'],
      env,
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toMatch(/merged Checking into .*Chase Checking/);
    expect((await chart()).map((a) => a.name)).not.toContain('Checking');

    const finalized = await runBooks(['migrate', 'finalize'], env);
    expect(finalized.code, finalized.stderr).toBe(0);
    expect(finalized.stderr).toMatch(/transaction rules seeded at .* \(\d+ generated\)/);
    expect((await runBooks(['migrate', 'status'], env)).stdout).toMatch(/state\s+finalized/);
    // Finalizing again reports the migration as it is.
    const again = await runBooks(['migrate', 'finalize'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/transaction rules seeded at/);
    expect(await entryCount()).toBe(200);
  }, 60_000);

  it('killed with SIGKILL part-way, then rerun: exactly the file’s entries exist', async () => {
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(6_000));
    const checkpoints = path.join(home.home, '.local/share/books/checkpoints');
    const first = spawnBooks(
      ['migrate', 'run', file, '--create-missing-accounts', '--concurrency', '1', '--no-finalize'],
      env,
    );
    const batchesDone = () =>
      existsSync(checkpoints)
        ? readdirSync(checkpoints).reduce(
            (n, f) =>
              n +
              readFileSync(path.join(checkpoints, f), 'utf8').split('\n').filter(Boolean).length,
            0,
          )
        : 0;
    const started = Date.now();
    while (batchesDone() < 10 && Date.now() - started < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    const killed = await first.result;
    expect(killed.signal).toBe('SIGKILL');
    const partial = await entryCount();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(6_000);

    const rerun = await runBooks(['migrate', 'run', file, '--create-missing-accounts'], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(
      'reconciled 5 accounts with the entries this import posted, to the cent',
    );
    expect(await entryCount()).toBe(6_000);
    const tb = await trialBalance();
    expect(tb.totals.debit).toBe(tb.totals.credit);
  }, 120_000);

  it('a fault after commit (503, then a dropped connection) is retried without duplicates', async () => {
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(450));
    for (const status of [503, 0]) {
      await api('POST', '/sandbox/v1/faults', {
        mode: 'after_commit',
        status,
        count: 1,
        method: 'POST',
        pathPrefix: `/platform/v1/entities/${entityId}/journal-entries/bulk`,
      });
    }
    const result = await runBooks(
      ['migrate', 'run', file, '--create-missing-accounts', '--no-wait'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await entryCount()).toBe(450);
  }, 60_000);

  it('an invalid file: exit 3, every problem by line, and zero entries on the platform', async () => {
    const file = path.join(home.home, 'bad.csv');
    writeFileSync(
      file,
      `${ledgerCsv(300).trimEnd()}\nE999,2025-13-01,Checking,Cash,5,x\nE999,2025-12-01,Sales,Income,-4,x\n`,
    );
    const result = await runBooks(['migrate', 'run', file, '--create-missing-accounts'], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:602: date "2025-13-01" is not a date (YYYY-MM-DD)`);
    expect(result.stderr).toContain('nothing was sent');
    expect(await entryCount()).toBe(0);
    expect(
      (await api('GET', `/platform/v1/entities/${entityId}/accounting-migration`)).status,
    ).toBe(404);
  });

  it('--dry-run checks the whole file and sends nothing; a bad file still exits 3', async () => {
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(2_000));
    // Checked against the live chart, which lacks the file's accounts.
    const lacking = await runBooks(['migrate', 'run', file, '--dry-run'], env);
    expect(lacking.code).toBe(3);
    expect(lacking.stderr).toContain(
      `${file}:3: no account "Checking" in the chart (add it, or pass --create-missing-accounts with an account_type column) (2000 lines)`,
    );
    const valid = await runBooks(
      ['migrate', 'run', file, '--dry-run', '--create-missing-accounts'],
      env,
    );
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stderr).toContain(`${file}: 2000 entries, 5 accounts, 2025-01-01 to 2025-12-31`);
    expect(valid.stderr).toContain(
      '--dry-run: would create 5 accounts: "Meals" (Operating Expenses), "Checking" (Cash), "Supplies" (Operating Expenses), "Travel" (Operating Expenses), "Sales" (Income)',
    );
    expect(valid.stderr).toContain('--dry-run: the file is valid; nothing was sent');
    expect(
      (await api('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`)).body.pagination
        .total,
    ).toBe(0);

    const bad = path.join(home.home, 'bad.csv');
    writeFileSync(bad, `${ledgerCsv(20).trimEnd()}\nE99,2025-12-01,Sales,Income,"-4,x\n`);
    const invalid = await runBooks(['migrate', 'run', bad, '--dry-run'], env);
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toMatch(new RegExp(`${bad}:42: .*quote`, 'i'));
    expect(await entryCount()).toBe(0);
    expect(
      (await api('GET', `/platform/v1/entities/${entityId}/accounting-migration`)).status,
    ).toBe(404);
  });

  it('says what is missing before anything else: the bookkeeping start date', async () => {
    await runBooks(['sandbox', 'entity', 'update', '--start-date', 'none'], env);
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, ledgerCsv(10));
    const result = await runBooks(['migrate', 'run', file], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has no bookkeeping start date');
  });
});

describe('books demo', () => {
  const year = ['--from', '2025-01-01', '--to', '2025-12-31', '--json'];

  it('builds its firm in the user’s own local platform, a believable year, safe to rerun also after its suggested merges', async () => {
    const home = temporaryHome();
    try {
      const first = await runBooks(['demo', '--verbose'], home.env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(
        /books demo: the January card transactions after finalization: .*→ categorized/,
      );
      expect(first.stderr).toContain(
        'reconciled 14 accounts with the entries this import posted, to the cent',
      );
      // One platform for the whole demo, and it is the user's (the demo had a file of its own).
      const platforms = first.stderr.match(/using the local platform \((.*)\)/g) ?? [];
      expect(platforms).toHaveLength(1);
      expect(platforms[0]).toContain(path.join('books', 'platform.sqlite'));
      expect(first.stdout).toContain('Net Income');
      // It ends with December's bank and card statements, written as camt.053, each account
      // reconciled to its own, and the close review of December with them.
      expect(first.stderr).toMatch(
        /books demo: wrote the bank's December statement of Checking \(old books\) as camt\.053 to .*checking-2025-12\.xml; reconciled: \d+ statement entries matched, difference 0\.00/,
      );
      expect(first.stderr).toMatch(
        /December statement of Visa \(old books\) as camt\.053 .*; reconciled:/,
      );
      expect(first.stdout.match(/^Reconciled\s+yes$/gm)).toHaveLength(2);
      expect(first.stdout).toMatch(/^Main Street Bakery\tyes\t/m);
      // Before December's close, January's bookkeeper's day: the statements in, the rules take
      // most, suggestions with their reasons, a transfer, a split, --auto for the sure ones.
      expect(first.stderr).toMatch(
        /January: the bank's and the card's statements imported \(.*\): 45 new, 3 already there; the rules took 39/,
      );
      expect(first.stdout).toMatch(
        // The strongest of its record: the payee's whole record, all of it to Meals.
        /BLUE BOTTLE COFFEE ROASTERS\t\d+ Meals \((?:0\.9\d|1\.00)\)\tall \d+ earlier BLUE BOTTLE went to \d+ Meals/,
      );
      expect(first.stderr).toMatch(
        /January: the Costco receipt split: split: \d+ Ingredients 100\.00, \d+ Supplies 212\.45/,
      );
      expect(first.stderr).toMatch(
        /January: categorize --auto took 2 confident suggestions, among them the card's payment as one transfer/,
      );
      expect(first.stderr).toContain(
        'January: 2 wait for a person (CITY OF SF BUSINESS TAX; SYSCO CORPORATION #512): books transactions review',
      );
      const statementFile = /as camt\.053 to (\S+checking-2025-12\.xml);/.exec(first.stderr)![1]!;
      const shown = await runBooks(['statement', 'show', statementFile, '--json'], home.env);
      expect(JSON.parse(shown.stdout)[0]).toMatchObject({
        format: 'camt',
        statements: [
          { account: '000123456789', currency: 'USD', from: '2025-12-01', to: '2025-12-31' },
        ],
      });

      // Every other command sees it: the demo's workspace, chosen since nothing else was.
      const workspaces = await runBooks(['workspace', 'list', '--json'], home.env);
      expect(JSON.parse(workspaces.stdout).map((w: { name: string }) => w.name)).toEqual([
        'Demo: Main Street Bakery',
        'Demo: Harbour Café',
      ]);
      // The firm's UK client: VAT-registered, its quarter's return tied and written as the body
      // of HMRC's Making Tax Digital request, valid against HMRC's own schema.
      const vat =
        /Harbour Café Ltd's VAT return of 2025-Q4: ([\d,.]+) to pay; ties to the VAT accounts \(they moved \1\); the Making Tax Digital body written to (\S+)$/m.exec(
          first.stderr,
        );
      expect(vat, first.stderr).not.toBeNull();
      const body = JSON.parse(readFileSync(vat![2]!, 'utf8')) as Record<string, unknown>;
      const { $schema: _draft, ...schema } = JSON.parse(
        readFileSync(
          path.resolve(
            import.meta.dirname,
            '../fixtures/schemas/hmrc-mtd-vat/VatReturnDeclaration.json',
          ),
          'utf8',
        ),
      );
      const validate = new Ajv({ strict: false, multipleOfPrecision: 8 }).compile(schema);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body).toMatchObject({
        periodKey: '25A4',
        netVatDue: Number(vat![1]!.replace(/,/g, '')),
      });
      expect(first.stdout).toMatch(/^1\tVAT due on sales and other outputs\t\d+\.\d\d$/m);
      expect(first.stderr).toContain(
        "books demo: no workspace was chosen, so commands now use the demo's (change it with books use)",
      );

      // A ledger a bookkeeper believes: the card owes (a credit balance), the bank is in funds,
      // and the year makes a bakery's margin.
      const balances = async () => {
        const tb = await runBooks(['report', 'tb', ...year], home.env);
        expect(tb.code, tb.stderr).toBe(0);
        const rows = JSON.parse(tb.stdout).report.rows as {
          accountName: string;
          debit: number;
          credit: number;
        }[];
        return new Map(rows.map((r) => [r.accountName, r.debit - r.credit]));
      };
      const before = await balances();
      expect(before.get('Visa (old books)')).toBeLessThan(0);
      expect(before.get('Checking (old books)')).toBeGreaterThan(25_000);
      const sections = JSON.parse((await runBooks(['report', 'pl', ...year], home.env)).stdout)
        .report.sections as { section: string; total: number }[];
      const total = (name: string) => sections.find((s) => s.section === name)!.total;
      const margin = total('netIncome') / total('income');
      expect(margin).toBeGreaterThan(0.05);
      expect(margin).toBeLessThan(0.2);

      // Its suggested merges, exactly as it printed them, then a rerun.
      const merges = [...first.stderr.matchAll(/next: books (migrate merge .*)$/gm)].map(
        (m) => m[1]!,
      );
      expect(merges).toHaveLength(2);
      for (const merge of merges) {
        const args = [...merge.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
        const merged = await runBooks([...args, '--yes'], home.env);
        expect(merged.code, merged.stderr).toBe(0);
      }
      const second = await runBooks(['demo'], home.env);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/reused from an earlier run: .*its 2025 migration \(finalized/);
      expect(second.stderr).not.toContain('migrate merge');
      expect(second.stderr).not.toContain('coded postings to');
      expect(second.stderr).toContain("Harbour Café Ltd's VAT return of 2025-Q4: ");
      // The same year; December now reconciled on the feed's accounts the history went into.
      const pl = (stdout: string) =>
        stdout.slice(
          stdout.indexOf('section\t'),
          stdout.indexOf('\n\n', stdout.indexOf('section\t')),
        );
      // January again: nothing comes in twice, nothing is decided twice.
      expect(second.stderr).toMatch(/January: .*: 0 new, 48 already there; the rules took 0/);
      expect(second.stderr).toContain('January: categorize --auto took 0 confident suggestions');
      expect(pl(second.stdout)).toBe(pl(first.stdout));
      expect(second.stdout).toMatch(/^Account\s+1000 Operating Checking$/m);
      expect(second.stdout.match(/^Reconciled\s+yes$/gm)).toHaveLength(2);
      expect(second.stdout).toMatch(/^Main Street Bakery\tyes\t/m);
      const after = await balances();
      expect(after.get('Business Visa')).toBe(before.get('Visa (old books)'));
      expect(after.get('Operating Checking')).toBe(before.get('Checking (old books)'));
      expect(after.has('Checking (old books)')).toBe(false);
      const third = await runBooks(['demo', '--json'], home.env);
      expect(third.code, third.stderr).toBe(0);
      expect(await balances()).toEqual(after);
    } finally {
      home.cleanup();
    }
  }, 90_000);

  it('keeps the workspace the user chose, and never writes to a remote platform', async () => {
    const home = temporaryHome();
    try {
      await runBooks(['workspace', 'create', 'Acme Ltd'], home.env);
      expect((await runBooks(['use', '-w', 'Acme Ltd'], home.env)).code).toBe(0);
      const demo = await runBooks(['demo'], home.env);
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stderr).not.toContain('commands now use the demo');
      const config = JSON.parse(
        readFileSync(path.join(home.home, '.config', 'books', 'config.json'), 'utf8'),
      );
      const acme = JSON.parse(
        (await runBooks(['workspace', 'get', 'Acme Ltd', '--json'], home.env)).stdout,
      );
      expect(config.profiles.local.workspace).toBe(acme.workspace.id);

      const remote = await runBooks(['demo', '--base-url', 'http://127.0.0.1:9'], {
        ...home.env,
        BOOKS_TOKEN: 'books_org_x',
      });
      expect(remote.code).toBe(2);
      expect(remote.stderr).toContain(
        "books demo builds its client's books on the local platform only, and this command would go to http://127.0.0.1:9",
      );
      expect(remote.stderr).not.toMatch(/\n\s+at /);
    } finally {
      home.cleanup();
    }
  }, 60_000);
});
