import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalances,
  runBooks,
  serveBooks,
  spawnBooks,
  temporaryHome,
} from '../helpers/cli.js';

/**
 * issue 16: imports you can trust with a client's books. Each case was reproduced on the old
 * code (a wrong account that still reconciled, the wrong client, twice, half, bad bytes and
 * numbers); each test runs the built binary in a temporary HOME against `books serve` on a real
 * SQLite file.
 */
describe('imports you can trust (the built binary against books serve on a SQLite file)', () => {
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
  const fileOf = (text: string | Buffer, name = `ledger-${++fileNumber}.csv`) => {
    const file = path.join(home.home, name);
    writeFileSync(file, text);
    return file;
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await server.api(method, url, body);
    expect(response.status, `${method} ${url}`).toBeLessThan(300);
    return response.body;
  };
  /** A workspace (on a custom chart or not) with one entity, chosen by `-w`/`-e` flags. */
  const newEntity = async (name: string, options: { customChart?: boolean } = {}) => {
    const { workspace } = await api('POST', '/platform/v1/workspaces', { name });
    if (options.customChart)
      await api('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, { customChartOfAccounts: true });
    const { entity } = await api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      name: `${name} Co`,
      bookkeepingStartDate: '2026-01-01',
    });
    return {
      workspaceId: workspace.id as string,
      entityId: entity.id as string,
      flags: ['-w', workspace.id as string, '-e', entity.id as string],
    };
  };
  const chart = async (entityId: string) =>
    (await api('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`)).data as {
      id: string;
      code: string;
      name: string;
      type: string;
    }[];
  const entryCount = async (entityId: string) =>
    (await api('GET', `/platform/v1/entities/${entityId}/journal-entries?limit=1`)).pagination
      .total as number;
  /** Debits minus credits per `code name` over all days, from the reports, in cents. */
  const balances = async (entityId: string) => {
    const range = 'startDate=2020-01-01&endDate=2025-12-31';
    const [{ report: trialBalance }, { report: profitAndLoss }] = await Promise.all([
      api('GET', `/platform/v1/entities/${entityId}/reports/trial-balance?${range}`),
      api('GET', `/platform/v1/entities/${entityId}/reports/profit-and-loss?${range}`),
    ]);
    return Object.fromEntries(
      accountBalances(trialBalance, profitAndLoss).map((a) => [
        `${a.accountCode} ${a.accountName}`,
        a.cents,
      ]),
    );
  };
  /** Each account's debits minus credits in a CSV, in cents, computed here, not by books. */
  const fileTotals = (text: string, key: (fields: string[]) => string, amount: number) => {
    const totals: Record<string, number> = {};
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.split(',');
      totals[key(fields)] = (totals[key(fields)] ?? 0) + Math.round(Number(fields[amount]) * 100);
    }
    return totals;
  };
  const spoolDirs = () => {
    const cache = path.join(home.home, '.cache', 'books');
    return existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('import-')) : [];
  };

  describe('the right account', () => {
    /** A year of entries by account_code and account_name, some lines with the code alone. */
    const pairs = (year: number) =>
      [
        'entry,date,account_code,account_name,account_type,amount,description',
        ...Array.from({ length: 40 }, (_, i) => {
          const day = `${year}-${String((i % 12) + 1).padStart(2, '0')}-10`;
          const cents = 1000 + i * 137;
          const amount = (cents / 100).toFixed(2);
          const [code, name, type] = [
            ['6000', 'Payroll', 'Operating Expenses'],
            ['6100', 'Rent', 'Operating Expenses'],
            ['4000', 'Sales', 'Income'],
          ][i % 3]!;
          const sign = code === '4000' ? '-' : '';
          const other = sign ? '' : '-';
          // Every fourth line names the bank by its code alone.
          const bank = i % 4 === 3 ? '1000,,' : '1000,Operating Bank,Cash';
          return `E${i},${day},${code},${name},${type},${sign}${amount},line ${i}\nE${i},${day},${bank},${other}${amount},line ${i}`;
        }),
      ].join('\n') + '\n';
    const byPair = (fields: string[]) => fields[2]!;

    it('on a custom chart: creates each account with the file’s code and name; a second file and a rerun post every line to the same account', async () => {
      const { entityId, flags } = await newEntity('Coded Chart', { customChart: true });
      const first = pairs(2024);
      const second = pairs(2025);
      const imported = await books(
        'je',
        'import',
        fileOf(first),
        '--create-missing-accounts',
        ...flags,
      );
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(
        'created 4 missing accounts: 1000 "Operating Bank", 4000 "Sales", 6000 "Payroll", 6100 "Rent"',
      );
      expect((await chart(entityId)).map((a) => [a.code, a.name, a.type])).toEqual([
        ['1000', 'Operating Bank', 'Cash'],
        ['4000', 'Sales', 'Income'],
        ['6000', 'Payroll', 'Operating Expenses'],
        ['6100', 'Rent', 'Operating Expenses'],
      ]);
      const secondFile = fileOf(second);
      const again = await books('je', 'import', secondFile, ...flags);
      expect(again.code, again.stderr).toBe(0);
      const rerun = await books('je', 'import', secondFile, ...flags);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(await entryCount(entityId)).toBe(80);
      const expected = fileTotals(first + second.split('\n').slice(1).join('\n'), byPair, 5);
      const names: Record<string, string> = {
        '1000': 'Operating Bank',
        '4000': 'Sales',
        '6000': 'Payroll',
        '6100': 'Rent',
      };
      expect(await balances(entityId)).toEqual(
        Object.fromEntries(
          Object.entries(expected).map(([code, c]) => [`${code} ${names[code]}`, c]),
        ),
      );
    });

    it('on a standard chart: says once that codes cannot be kept, matches and creates by name, and each code keeps to its account', async () => {
      const { entityId, flags } = await newEntity('Standard Chart');
      // The chart has Rent at code 6000, which the file gives to Payroll: matching by code
      // posted the file's payroll to Rent, and the reconciliation still matched.
      expect(
        (await books('coa', 'create', '--name', 'Rent', '--type', 'Operating Expenses', ...flags))
          .code,
      ).toBe(0);
      expect((await chart(entityId)).map((a) => [a.code, a.name])).toEqual([['6000', 'Rent']]);
      const text = pairs(2025);
      const file = fileOf(text);
      const imported = await books('je', 'import', file, '--create-missing-accounts', ...flags);
      expect(imported.code, imported.stderr).toBe(0);
      const byName = {
        '6000': 'Payroll',
        '6100': 'Rent',
        '4000': 'Sales',
        '1000': 'Operating Bank',
      } as Record<string, string>;
      const expected = fileTotals(text, (f) => byName[f[2]!]!, 5);
      /** Each account's balance by its name: the file's totals, `times` over. */
      const expectBalances = async (times: number) => {
        const byAccountName = Object.fromEntries(
          Object.entries(await balances(entityId)).map(([label, c]) => [
            label.replace(/^\d+ /, ''),
            c,
          ]),
        );
        expect(byAccountName).toEqual(
          Object.fromEntries(Object.entries(expected).map(([name, c]) => [name, c * times])),
        );
      };
      await expectBalances(1);
      expect(imported.stderr.match(/the file's account codes cannot be kept/g)).toHaveLength(1);
      expect(Object.fromEntries((await chart(entityId)).map((a) => [a.name, a.code]))).toEqual({
        Rent: '6000',
        Payroll: '6001',
        Sales: '4000',
        'Operating Bank': '1000',
      });
      await expectBalances(1);
      const rerun = await books('je', 'import', file, ...flags);
      expect(rerun.code, rerun.stderr).toBe(0);
      await expectBalances(1);
      // Renamed on the platform since, the account still holds the file's code on a rerun.
      expect((await books('coa', 'rename', 'Rent', 'Premises', ...flags)).code).toBe(0);
      const renamed = await books('je', 'import', file, ...flags);
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(renamed.stdout).toContain('6100 "Rent"\t6000 "Premises"');
      expect((await books('coa', 'rename', 'Premises', 'Rent', ...flags)).code).toBe(0);
      // The same accounts in another year's file, another run: the same accounts again.
      const later = await books(
        'je',
        'import',
        fileOf(text.replaceAll('2025-', '2024-')),
        ...flags,
      );
      expect(later.code, later.stderr).toBe(0);
      await expectBalances(2);
    });

    it('a code whose name differs from the chart’s, or from itself in the file, stops the import before anything is sent', async () => {
      const { entityId, flags } = await newEntity('Disagreeing', { customChart: true });
      await books(
        'coa',
        'create',
        '--name',
        'Office Rent',
        '--type',
        'Operating Expenses',
        '--code',
        '6100',
        ...flags,
      );
      const file = fileOf(
        'date,account_code,account_name,account_type,amount\n' +
          '2025-01-02,6100,Rent,expense,10\n2025-01-02,1000,Bank,asset,-10\n' +
          '2025-01-03,1000,Cash,asset,5\n2025-01-03,4000,Sales,income,-5\n',
      );
      const result = await books('je', 'import', file, '--create-missing-accounts', ...flags);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `${file}:2: the file's account 6100 "Rent" does not match the chart's 6100 "Office Rent": rename one of them so that they agree (1 line)`,
      );
      expect(result.stderr).toContain(
        `${file}:4: account code 1000 is "Cash" here and "Bank" on line 3`,
      );
      expect(result.stderr).toContain('nothing was sent');
      expect(await entryCount(entityId)).toBe(0);
      expect((await chart(entityId)).map((a) => a.name)).toEqual(['Office Rent']);
    });

    it('account_type takes the API’s types and the classes of accounts, in any case', async () => {
      const { entityId, flags } = await newEntity('Typed');
      const file = fileOf(
        'date,account,account_type,amount\n' +
          '2025-01-02,Bank,ASSETS,10\n2025-01-02,Card,liability,-10\n' +
          '2025-01-03,Owner,Equity,-5\n2025-01-03,Fees,Expenses,5\n' +
          '2025-01-04,Consulting,Revenues,-7\n2025-01-04,Stock,inventory,7\n',
      );
      const result = await books('je', 'import', file, '--create-missing-accounts', ...flags);
      expect(result.code, result.stderr).toBe(0);
      expect(Object.fromEntries((await chart(entityId)).map((a) => [a.name, a.type]))).toEqual({
        Bank: 'Other Current Assets',
        Stock: 'Inventory',
        Card: 'Other Current Liabilities',
        Owner: 'Equity',
        Consulting: 'Income',
        Fees: 'Operating Expenses',
      });
    });
  });

  describe('the right client', () => {
    const ledger =
      'date,account,account_type,amount\n2025-02-01,Bank,Cash,10\n2025-02-01,Sales,Income,-10\n';

    it('-w W without -e never uses the saved entity of another workspace', async () => {
      const a = await newEntity('Client A');
      expect((await books('use', '-w', a.workspaceId, '-e', a.entityId)).code).toBe(0);
      const { workspace: b } = await api('POST', '/platform/v1/workspaces', { name: 'Client B' });
      for (const name of ['B North', 'B South'])
        await api('POST', `/sandbox/v1/workspaces/${b.id}/entities`, { name });
      const file = fileOf(ledger);
      const refused = await books(
        'je',
        'import',
        file,
        '--create-missing-accounts',
        '-w',
        'Client B',
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `books: workspace "Client B" (${b.id}) has 2 entities: pass --entity ("B North", "B South") or run books use --entity E`,
      );
      expect(await entryCount(a.entityId)).toBe(0);
      // An entity of A named with workspace B: refused too.
      const crossed = await books('je', 'import', file, '-w', 'client b', '-e', a.entityId);
      expect(crossed.code).toBe(2);
      expect(crossed.stderr).toContain(
        `books: entity "Client A Co" (${a.entityId}) belongs to workspace "Client A" (${a.workspaceId}), not to "Client B" (${b.id})`,
      );
      expect(await entryCount(a.entityId)).toBe(0);

      const c = await newEntity('Client C');
      const imported = await books(
        'je',
        'import',
        file,
        '--create-missing-accounts',
        '-w',
        'Client C',
      );
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(
        `books: workspace "Client C" (${c.workspaceId}), entity "Client C Co" (${c.entityId}): 1 entry of`,
      );
      expect(await entryCount(c.entityId)).toBe(1);
      expect(await entryCount(a.entityId)).toBe(0);
      // With no -w, the saved choice holds.
      const saved = await books('je', 'import', file, '--create-missing-accounts');
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stderr).toContain(
        `workspace "Client A" (${a.workspaceId}), entity "Client A Co" (${a.entityId})`,
      );
      expect(await entryCount(a.entityId)).toBe(1);
      expect((await books('use', '--workspace', 'none-such')).code).toBe(5);
    });
  });

  describe('never twice', () => {
    it('the same file into two sibling entities made within a minute, back to back', async () => {
      const { workspace } = await api('POST', '/platform/v1/workspaces', { name: 'Siblings' });
      const file = fileOf(
        'date,account,account_type,amount\n2025-03-01,Bank,Cash,12.5\n2025-03-01,Sales,Income,-12.5\n',
      );
      for (const name of ['Sibling One', 'Sibling Two']) {
        const { entity } = await api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
          name,
        });
        const result = await books(
          'je',
          'import',
          file,
          '--create-missing-accounts',
          '-w',
          workspace.id,
          '-e',
          entity.id,
        );
        expect(result.code, result.stderr).toBe(0);
        expect((await chart(entity.id)).map((a) => a.name)).toEqual(['Bank', 'Sales']);
        expect(await entryCount(entity.id)).toBe(1);
      }
    });

    /** 6,000 two-line entries (60 batches), one description per entry. */
    const deposits = () => {
      const rows = ['entry,date,account,account_type,amount,description'];
      for (let i = 1; i <= 6_000; i += 1) {
        const day = `2025-${String((i % 12) + 1).padStart(2, '0')}-15`;
        rows.push(
          `E${i},${day},Bank,Cash,${i}.25,deposit ${i}`,
          `E${i},${day},Sales,Income,-${i}.25,deposit ${i}`,
        );
      }
      return rows.join('\n');
    };
    const checkpoints = () => path.join(home.home, '.local/share/books/checkpoints');
    const sentBatches = () =>
      existsSync(checkpoints())
        ? readdirSync(checkpoints()).reduce(
            (n, f) =>
              n +
              (readFileSync(path.join(checkpoints(), f), 'utf8').match(/"batch":/g)?.length ?? 0),
            0,
          )
        : 0;
    /** Starts an import and stops it with `signal` once three more batches are in. */
    const stopPartWay = async (file: string, flags: string[], signal: NodeJS.Signals) => {
      const before = sentBatches();
      const running = spawnBooks(
        ['je', 'import', file, '--create-missing-accounts', '--concurrency', '1', ...flags],
        env,
      );
      while (sentBatches() < before + 3) await new Promise((resolve) => setTimeout(resolve, 10));
      running.child.kill(signal);
      return running.result;
    };

    it('a partial import (kill -9), fixed and rerun, ends with exactly the file’s entries; a changed sent batch is refused', async () => {
      const { entityId, flags } = await newEntity('Partial');
      const text = deposits();
      const file = fileOf(`${text}\n`, 'partial.csv');
      expect((await stopPartWay(file, flags, 'SIGKILL')).signal).toBe('SIGKILL');
      const partial = await entryCount(entityId);
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(6_000);

      // The fix, in a batch not yet sent: the file's hash changes, its sent batches do not.
      const fixed = text.replaceAll('deposit 6000', 'deposit 6000 (corrected)');
      writeFileSync(file, `${fixed}\n`);
      const rerun = await books('je', 'import', file, ...flags);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(await entryCount(entityId)).toBe(6_000);
      // The rerun sends batches concurrently, so E6000 need not be the day's latest: read the day.
      const descriptions: string[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await api(
          'GET',
          `/platform/v1/entities/${entityId}/journal-entries?startDate=2025-01-15&endDate=2025-01-15&limit=100&offset=${offset}`,
        );
        for (const entry of page.data) descriptions.push(entry.lines[0].description);
        if (page.data.length < 100) break;
      }
      expect(descriptions).toHaveLength(500);
      expect(descriptions.filter((d) => d.startsWith('deposit 6000'))).toEqual([
        'deposit 6000 (corrected)',
      ]);

      // A change to an entry already sent: refused, naming it; nothing is sent.
      writeFileSync(
        file,
        `${fixed.replace('E2,2025-03-15,Bank,Cash,2.25', 'E2,2025-03-15,Bank,Cash,2.26').replace('E2,2025-03-15,Sales,Income,-2.25', 'E2,2025-03-15,Sales,Income,-2.26')}\n`,
      );
      const changed = await books('je', 'import', file, ...flags);
      expect(changed.code).toBe(3);
      expect(changed.stderr).toContain(
        `${file}:4: batch 1 (lines 2–201) was sent by an earlier run of this import; its entries on line 4 have changed since.`,
      );
      expect(await entryCount(entityId)).toBe(6_000);
    }, 120_000);

    it('Ctrl-C stops an import part-way with exit 130, removes its spool, and the same command finishes it', async () => {
      const { entityId, flags } = await newEntity('Interrupted');
      const file = fileOf(`${deposits()}\n`, 'interrupted.csv');
      const interrupted = await stopPartWay(file, flags, 'SIGINT');
      expect(interrupted.code).toBe(130);
      expect(interrupted.stderr).toMatch(
        /books: interrupted \(\d+ of 60 batches are in\); run the same command again to finish\n$/,
      );
      expect(spoolDirs()).toEqual([]);
      expect(await entryCount(entityId)).toBeLessThan(6_000);
      const rerun = await books('je', 'import', file, ...flags);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(await entryCount(entityId)).toBe(6_000);
      expect(spoolDirs()).toEqual([]);
    }, 120_000);
  });

  describe('nothing half-sent: pass one refuses what the platform would', () => {
    it('reports every rule the platform enforces, with line numbers, and sends nothing (the dry run too)', async () => {
      const { entityId, workspaceId, flags } = await newEntity('Strict');
      await api('PATCH', `/sandbox/v1/entities/${entityId}`, { lockDate: '2025-01-31' });
      const { data: accounts } = await api(
        'POST',
        `/platform/v1/entities/${entityId}/chart-of-accounts/bulk`,
        {
          accounts: [
            { name: 'Bank', type: 'Cash' },
            { name: 'Sales', type: 'Income' },
            { name: 'Old Bank', type: 'Cash' },
          ],
        },
      );
      await api(
        'POST',
        `/platform/v1/entities/${entityId}/chart-of-accounts/${accounts[2].id}/disable`,
      );
      const region = await api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'Region',
      });
      const territory = await api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'Territory',
      });
      for (const parent of [region, territory])
        await api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
          label: 'West',
          parentClassId: parent.class.id,
        });
      await api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'East',
        parentClassId: region.class.id,
      });
      await api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'North',
        parentClassId: region.class.id,
      });
      const huge = 'x'.repeat(9_000);
      const lines = [
        'entry,date,account,account_type,amount,memo,classes,description',
        'A,2025-01-15,Bank,,5,,,', // 2: on or before the lock date
        'A,2025-01-15,Sales,,-5,,,',
        `B,2025-02-01,Bank,,5,${'m'.repeat(1001)},,`, // 4: memo over 1,000 characters
        'B,2025-02-01,Sales,,-5,,,',
        'C,2025-02-02,Old Bank,,5,,,', // 6: archived account
        'C,2025-02-02,Sales,,-5,,,',
        'D,2025-02-03,Bank,,5,,West,', // 8: West is ambiguous
        'D,2025-02-03,Sales,,-5,,Nowhere,', // 9: no such class
        'E,2025-02-04,Bank,,5,,East;North,', // 10: two classes of one dimension
        'E,2025-02-04,Sales,,-5,,,',
        'F,2025-02-05,Bank,Income,5,,,', // 12: the chart's Bank is an asset
        'F,2025-02-05,Sales,,-5,,,',
        'G,2025-02-06,Gadgets,widgets,5,,,', // 14: not an account type
        'G,2025-02-06,Sales,,-5,,,',
        // 16: an entry too large for a request: 480 lines of 9 kB
        ...Array.from(
          { length: 480 },
          (_, i) => `H,2025-02-07,${i % 2 ? 'Sales' : 'Bank'},,${i % 2 ? -1 : 1},,,${huge}`,
        ),
      ];
      const file = fileOf(`${lines.join('\n')}\n`);
      const problems = [
        `${file}:2: the entry is dated 2025-01-15, on or before the entity's lock date (2025-01-31): the platform refuses it`,
        `${file}:4: the memo has 1001 characters; the platform takes at most 1000`,
        `${file}:6: account 1001 "Old Bank" is archived: the platform refuses new lines on it (books coa enable 1001) (1 line)`,
        `${file}:8: class "West" names 2 classes of the workspace: Region › West (`,
        `${file}:9: no class "Nowhere" in the workspace (1 line)`,
        `${file}:10: classes "East" and "North" are of the same dimension: a line carries at most one class per dimension`,
        `${file}:12: the file types account "Bank" as Income (Income), but the chart's 1000 "Bank" is Cash (Assets)`,
        `${file}:14: account "Gadgets": "widgets" is not an account type (one of Cash, `,
        `${file}:16: the entry is too large for one request: about 4.2 MB, where books sends at most 4 MB (the platform takes 5 MB)`,
      ];
      for (const dryRun of [['--dry-run'], []]) {
        const result = await books(
          'je',
          'import',
          file,
          '--create-missing-accounts',
          ...dryRun,
          ...flags,
        );
        expect(result.code, result.stderr).toBe(3);
        for (const problem of problems) expect(result.stderr).toContain(problem);
        expect(result.stderr).toContain(`9 problems in ${file}; nothing was sent`);
      }
      expect(await entryCount(entityId)).toBe(0);
      expect((await chart(entityId)).map((a) => a.name)).toEqual(['Bank', 'Old Bank', 'Sales']);

      const accrual = await books(
        'je',
        'import',
        fileOf('date,account,amount\n2025-03-01,Bank,5\n2025-03-01,Sales,-5\n'),
        '--basis',
        'accrual',
        ...flags,
      );
      expect(accrual.code).toBe(3);
      expect(accrual.stderr).toContain(
        'the accrual ledger of entity "Strict Co" is not open: books sandbox entity open-accrual, or import to the cash ledger',
      );
    }, 60_000);
  });

  describe('bytes and numbers read right', () => {
    const latin1 = Buffer.from(
      'date,account,account_type,amount,description\n2025-04-01,Caf\xe9 Cr\xe8me,Income,-9.50,\xe9t\xe9\n2025-04-01,Bank,Cash,9.50,\xe9t\xe9\n',
      'latin1',
    );

    it('a Latin-1 file: refused as not UTF-8 (with its line), read right with --encoding latin1', async () => {
      const { entityId, flags } = await newEntity('Latin');
      const file = fileOf(latin1);
      const refused = await books('je', 'import', file, '--create-missing-accounts', ...flags);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(
        `${file}:2: byte 0xE9 (at byte 59) is not UTF-8: if the file was saved in another encoding, name it with --encoding (windows-1252 and latin1 are common for Western European files)`,
      );
      expect(await chart(entityId)).toEqual([]);
      const read = await books(
        'je',
        'import',
        file,
        '--create-missing-accounts',
        '--encoding',
        'latin1',
        ...flags,
      );
      expect(read.code, read.stderr).toBe(0);
      expect((await chart(entityId)).map((a) => a.name)).toContain('Café Crème');
      const { data } = await api('GET', `/platform/v1/entities/${entityId}/journal-entries`);
      expect(data[0].lines[0].description).toBe('été');
      const unknown = await books('je', 'import', file, '--encoding', 'klingon', ...flags);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--encoding: "klingon" is not an encoding books knows');
    });

    it('UTF-16 with its byte order mark', async () => {
      const { entityId, flags } = await newEntity('Wide');
      const text =
        '\uFEFFdate;account;account_type;amount\n2025-04-02;Über Bank;Cash;3\n2025-04-02;Sales;Income;-3\n';
      const result = await books(
        'je',
        'import',
        fileOf(Buffer.from(text, 'utf16le')),
        '--create-missing-accounts',
        ...flags,
      );
      expect(result.code, result.stderr).toBe(0);
      expect((await chart(entityId)).map((a) => a.name)).toEqual(['Über Bank', 'Sales']);
    });

    it('every amount form a ledger writes, and with --decimal-comma', async () => {
      const { entityId, flags } = await newEntity('Amounts');
      const plain = fileOf(
        'date,account,account_type,debit,credit\n' +
          '2025-05-01,Bank,Cash,0001.50,\n2025-05-01,Sales,Income,,1.50\n' +
          '2025-05-02,Bank,Cash,"1,234.56",\n2025-05-02,Sales,Income,,$1234.56\n' +
          '2025-05-03,Bank,Cash,(12.00),\n2025-05-03,Sales,Income,,12.00-\n' +
          '2025-05-04,Bank,Cash,$12,-0.00\n2025-05-04,Sales,Income,-0.00,12\n',
      );
      const result = await books('je', 'import', plain, '--create-missing-accounts', ...flags);
      expect(result.code, result.stderr).toBe(0);
      expect(await balances(entityId)).toEqual({ '1000 Bank': 123606, '4000 Sales': -123606 });
      const comma = fileOf(
        'date;account;amount\n2025-05-05;Bank;1.234,56\n2025-05-05;Sales;-1.234,56\n2025-05-06;Bank;12,34\n2025-05-06;Sales;-12,34\n',
      );
      const refused = await books('je', 'import', comma, ...flags);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(
        `${comma}:4: the amount "12,34" is ambiguous: "," could separate thousands or decimals (with --decimal-comma it reads 12.34)`,
      );
      const read = await books('je', 'import', comma, '--decimal-comma', ...flags);
      expect(read.code, read.stderr).toBe(0);
      expect(await balances(entityId)).toEqual({ '1000 Bank': 248296, '4000 Sales': -248296 });
    });

    it('je create: 12,34 and 1,2,3 are usage errors, nothing posted; 0001.50 is 1.50', async () => {
      const { entityId, flags } = await newEntity('Typed In');
      await books('coa', 'create', '--name', 'Bank', '--type', 'Cash', ...flags);
      await books('coa', 'create', '--name', 'Sales', '--type', 'Income', ...flags);
      const create = (amount: string) =>
        books(
          'je',
          'create',
          '--date',
          '2025-06-01',
          '--debit',
          `Bank=${amount}`,
          '--credit',
          `sales=${amount}`,
          ...flags,
        );
      const comma = await create('12,34');
      expect(comma.code).toBe(2);
      expect(comma.stderr).toContain('books: --debit Bank=12,34: the amount "12,34" is ambiguous');
      const groups = await create('1,2,3');
      expect(groups.code).toBe(2);
      expect(groups.stderr).toContain(
        'the amount "1,2,3" is not an amount: group digits in threes',
      );
      expect(await entryCount(entityId)).toBe(0);
      expect((await create('0001.50')).code).toBe(0);
      expect(await balances(entityId)).toEqual({ '1000 Bank': 150, '4000 Sales': -150 });
    });
  });

  describe('hostile files: exit 3 with the line, little memory, no stack, no spool left', () => {
    /** Runs books, sampling its peak resident memory (VmHWM) until it exits. */
    const runMeasured = async (args: string[]) => {
      const running = spawnBooks(args, env);
      let peakKb = 0;
      const status = `/proc/${running.child.pid}/status`;
      let done = false;
      void running.result.then(() => (done = true));
      while (!done) {
        try {
          peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1] ?? peakKb);
        } catch {
          // Gone already.
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { ...(await running.result), peakKb };
    };

    it.each([
      [
        'a bare quote in an unquoted field',
        () =>
          fileOf(
            'date,account,amount,description\n2025-07-01,Bank,5,a "quoted" word\n2025-07-01,Sales,-5,x\n',
          ),
        2,
        'a quote inside a field that does not start with one',
      ],
      [
        'a 10 MB field',
        () =>
          fileOf(
            `date,account,amount,description\n2025-07-01,Bank,5,"${'y'.repeat(10 * 1024 * 1024)}"\n`,
          ),
        2,
        'a record is longer than 1,048,576 characters',
      ],
      ['a binary file', () => process.execPath, 1, 'the file holds a NUL byte'],
      [
        '/dev/zero',
        () => '/dev/zero',
        1,
        'the file holds a NUL byte (at byte 0): it is not a CSV text file',
      ],
    ])(
      '%s',
      async (_name, file, line, message) => {
        const { flags } = await newEntity(`Hostile ${++fileNumber}`);
        const path = file();
        const result = await runMeasured([
          'je',
          'import',
          path,
          '--create-missing-accounts',
          ...flags,
        ]);
        expect(result.code).toBe(3);
        expect(result.stderr).toContain(`${path}:${line}: ${message}`);
        expect(result.stderr).not.toMatch(/\n\s+at |a bug/);
        expect(result.peakKb).toBeLessThan(200 * 1024);
        expect(spoolDirs()).toEqual([]);
      },
      60_000,
    );
  });
});
