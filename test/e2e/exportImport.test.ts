import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksPaths } from '../../src/cli/config/paths.js';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';
import { storeGeneratedBooks } from '../helpers/storedBooks.js';

type Server = Awaited<ReturnType<typeof serveBooks>>;

const REPORTS = ['profit-and-loss', 'balance-sheet', 'trial-balance', 'cash-flow'] as const;

/**
 * An entity's reports, month by month, on each ledger, as a person compares them: the entity's
 * id left out, and (`byName`) each account by its name, for a standard chart that gives the
 * copy's accounts codes of its own.
 */
async function monthlyReports(
  server: Server,
  entityId: string,
  range: { startDate: string; endDate: string },
  bases: readonly string[],
  byName: boolean,
) {
  const reports: Record<string, unknown> = {};
  for (const ledgerBasis of bases) {
    for (const report of REPORTS) {
      const query = new URLSearchParams({ ...range, ledgerBasis, groupBy: 'month' });
      const answer = await server.api(
        'GET',
        `/platform/v1/entities/${entityId}/reports/${report}?${query}`,
      );
      expect(answer.status).toBe(200);
      const { entityId: _, ...rest } = answer.body.report;
      reports[`${ledgerBasis} ${report}`] = byName ? withoutCodes(rest) : rest;
    }
  }
  return reports;
}

/** Account codes left out and lines put in name order, everywhere in a report. */
function withoutCodes(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutCodes);
    return items.every((i) => typeof i === 'object' && i !== null && 'accountName' in i)
      ? items.sort((a: any, b: any) => String(a.accountName).localeCompare(String(b.accountName)))
      : items;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'accountCode')
        .map(([key, inner]) => [key, withoutCodes(inner)]),
    );
  }
  return value;
}

async function books(args: string[], env: NodeJS.ProcessEnv) {
  const result = await runBooks(args, env);
  expect(result.code, `books ${args.join(' ')}\n${result.stderr}`).toBe(0);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result;
}

/**
 * `books export` then `books import` through the built binary and a real `books serve` on
 * loopback: the demo firm (bank transactions and an opening balance among its postings, a class
 * tree, a rule, an account group and an archived account added) into a new entity of its own
 * workspace (a standard chart: the platform allocates the copy's codes), and a generated ledger
 * of about 100,000 postings on both ledgers into a new workspace on a custom chart (codes kept).
 * Every report, month by month, on both ledgers, is the same on both sides; a second import
 * writes nothing.
 */
describe('books export, then books import into a new entity', () => {
  const home = temporaryHome();
  afterAll(() => home.cleanup());

  describe('the demo firm', () => {
    let server: Server;
    let env: NodeJS.ProcessEnv;
    let workspaceId: string;
    let entityId: string;

    beforeAll(async () => {
      await books(['demo'], home.env);
      server = await serveBooks(home, ['--db', booksPaths(home.env).platformDatabase], {
        asGiven: true,
      });
      env = server.env;
      const workspace = (await server.api('GET', '/platform/v1/workspaces')).body.data[0];
      workspaceId = workspace.id;
      entityId = (await server.api('GET', `/sandbox/v1/workspaces/${workspaceId}/entities`)).body
        .data[0].id;
      // What the demo lacks and an export must carry.
      const chart = (await server.api('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`))
        .body.data as { id: string; name: string; type: string }[];
      const region = await server.api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'Region',
      });
      const west = await server.api('POST', `/platform/v1/workspaces/${workspaceId}/classes`, {
        label: 'West',
        parentClassId: region.body.class.id,
      });
      const travel = chart.find((a) => a.name === 'Travel')!;
      const checking = chart.find((a) => a.name === 'Checking (old books)')!;
      const entry = await server.api('POST', `/platform/v1/entities/${entityId}/journal-entries`, {
        date: '2025-06-15',
        memo: 'Trip, "West" region; classed',
        lines: [
          {
            accountId: travel.id,
            debitAmount: 120.5,
            classIds: [west.body.class.id],
            description: 'Flight, with a comma',
          },
          { accountId: checking.id, creditAmount: 120.5 },
        ],
      });
      expect(entry.status).toBe(201);
      const rule = await server.api(
        'POST',
        `/platform/v1/workspaces/${workspaceId}/transaction-rules`,
        {
          conditions: [{ conditionType: 'description_contains', value: ['DELTA AIR'] }],
          actions: [
            { actionType: 'account_id', value: travel.id },
            { actionType: 'class_id', value: west.body.class.id },
          ],
          note: 'Flights are travel in the West',
        },
      );
      expect(rule.status).toBe(201);
      const feedAccount = chart.find((a: any) => a.financialAccountId !== null) as any;
      expect(
        (
          await server.api('POST', `/platform/v1/workspaces/${workspaceId}/transaction-rules`, {
            conditions: [
              { conditionType: 'financial_account_is', value: [feedAccount.financialAccountId] },
            ],
            actions: [{ actionType: 'account_id', value: travel.id }],
            note: 'Paid from the feed account',
          })
        ).status,
      ).toBe(201);
      const group = await server.api('POST', `/platform/v1/entities/${entityId}/account-groups`, {
        name: 'Getting about',
        type: travel.type,
      });
      expect(group.status).toBe(201);
      expect(
        (
          await server.api(
            'PATCH',
            `/platform/v1/entities/${entityId}/chart-of-accounts/${travel.id}`,
            {
              groupId: group.body.group.id,
            },
          )
        ).status,
      ).toBe(200);
      const unused = await server.api(
        'POST',
        `/platform/v1/entities/${entityId}/chart-of-accounts`,
        { name: 'Old petty cash', type: 'Cash' },
      );
      expect(
        (
          await server.api(
            'POST',
            `/platform/v1/entities/${entityId}/chart-of-accounts/${unused.body.account.id}/disable`,
          )
        ).status,
      ).toBe(200);
    }, 120_000);
    afterAll(() => server?.stop());

    it('reproduces every report by month, the classes, the rule, the group and the archived account; a rerun writes nothing', async () => {
      const exported = path.join(home.home, 'demo-export');
      const exportRun = await books(
        ['export', exported, '-w', workspaceId, '-e', entityId, '--json'],
        env,
      );
      const { manifest } = JSON.parse(exportRun.stdout);
      expect(manifest.counts.platformPostings.cash).toBeGreaterThan(0);
      for (const name of [
        'chart.csv',
        'groups.json',
        'classes.json',
        'rules.json',
        'journal-cash.csv',
      ]) {
        expect(existsSync(path.join(exported, name)), name).toBe(true);
      }
      const journal = readFileSync(path.join(exported, 'journal-cash.csv'), 'utf8');
      expect(journal).toContain('"Trip, ""West"" region; classed"');
      expect(journal).toContain(',West,manual');

      const created = await server.api('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
        name: 'Main Street Bakery (copy)',
      });
      const copyId = created.body.entity.id;
      const imported = await books(
        ['import', exported, '-w', workspaceId, '-e', copyId, '--json'],
        env,
      );
      expect(JSON.parse(imported.stdout).trialBalances).toEqual([
        { ledgerBasis: 'cash', matches: true, differences: [] },
      ]);

      const range = { startDate: '2024-12-01', endDate: '2026-12-31' };
      expect(await monthlyReports(server, copyId, range, ['cash'], true)).toEqual(
        await monthlyReports(server, entityId, range, ['cash'], true),
      );
      const copyChart = (
        await server.api('GET', `/platform/v1/entities/${copyId}/chart-of-accounts`)
      ).body.data as { name: string; isDisabled: boolean; groupId: string | null }[];
      expect(copyChart.find((a) => a.name === 'Old petty cash')?.isDisabled).toBe(true);
      expect(copyChart.find((a) => a.name === 'Travel')?.groupId).not.toBeNull();
      const classed = (
        await server.api(
          'GET',
          `/platform/v1/entities/${copyId}/journal-entries?startDate=2025-06-15&endDate=2025-06-15`,
        )
      ).body.data.find((e: any) => e.memo === 'Trip, "West" region; classed');
      const classes = (await server.api('GET', `/platform/v1/workspaces/${workspaceId}/classes`))
        .body.data as { id: string; label: string }[];
      expect(classes.filter((c) => c.label === 'West')).toHaveLength(1);
      expect(classed.lines[0].classIds).toEqual([classes.find((c) => c.label === 'West')!.id]);
      expect(classed.lines[0].description).toBe('Flight, with a comma');

      // Rules are the workspace's: the copy's rule posts to the copy's account.
      const flightRules = async () =>
        (
          await server.api('GET', `/platform/v1/workspaces/${workspaceId}/transaction-rules`)
        ).body.data.filter((r: any) => r.note === 'Flights are travel in the West');
      expect(await flightRules()).toHaveLength(2);
      // Again: every batch is in already, every group, class and rule found.
      const entriesBefore = (
        await server.api('GET', `/platform/v1/entities/${copyId}/journal-entries?limit=1`)
      ).body.pagination.total;
      const rerun = await books(
        ['import', exported, '-w', workspaceId, '-e', copyId, '--json'],
        env,
      );
      expect(JSON.parse(rerun.stdout).rulesCreated).toBe(0);
      expect(
        (await server.api('GET', `/platform/v1/entities/${copyId}/journal-entries?limit=1`)).body
          .pagination.total,
      ).toBe(entriesBefore);
      expect(await flightRules()).toHaveLength(2);
      expect(rerun.stderr).toContain('accounts created (');
      expect(rerun.stderr).toContain('books: rule left out: Paid from the feed account:');

      expect(rerun.stderr).toContain(
        "books: the cash ledger holds the export's entries already: not sent again",
      );
      // Into an entity that holds other books: refused before anything is written.
      const other = (
        await server.api('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
          name: 'Other books',
        })
      ).body.entity.id;
      const otherChart = (
        await server.api('POST', `/platform/v1/entities/${other}/chart-of-accounts/bulk`, {
          accounts: [
            { name: 'Till', type: 'Cash' },
            { name: 'Takings', type: 'Income' },
          ],
        })
      ).body.data;
      await server.api('POST', `/platform/v1/entities/${other}/journal-entries`, {
        date: '2025-02-01',
        lines: [
          { accountId: otherChart[0].id, debitAmount: 10 },
          { accountId: otherChart[1].id, creditAmount: 10 },
        ],
      });
      const into = await runBooks(['import', exported, '-w', workspaceId, '-e', other], env);
      expect(into.code, into.stderr).toBe(1);
      expect(
        (await server.api('GET', `/platform/v1/entities/${other}/chart-of-accounts`)).body.data,
      ).toHaveLength(2);
      expect(into.stderr).toContain(
        'holds other books on its cash ledger: books import writes into an empty entity (create one with books sandbox entity create); nothing was written',
      );
    }, 120_000);

    it('--from/--to export those days only, and they import to the same trial balance', async () => {
      const exported = path.join(home.home, 'demo-march');
      const run = await books(
        [
          'export',
          exported,
          '-w',
          workspaceId,
          '-e',
          entityId,
          '--from',
          '2025-03-01',
          '--to',
          '2025-03-31',
          '--json',
        ],
        env,
      );
      const { manifest } = JSON.parse(run.stdout);
      expect(manifest.range).toEqual({ from: '2025-03-01', to: '2025-03-31' });
      const dates = readFileSync(path.join(exported, 'journal-cash.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => /,(\d{4}-\d{2}-\d{2}),/.exec(line)![1]!);
      expect(dates.length).toBeGreaterThan(0);
      expect(dates.every((d) => d >= '2025-03-01' && d <= '2025-03-31')).toBe(true);
      expect([...dates].sort()).toEqual(dates);
      const march = (
        await server.api(
          'GET',
          `/platform/v1/entities/${entityId}/journal-entries?startDate=2025-03-01&endDate=2025-03-31&limit=1`,
        )
      ).body.pagination.total;
      expect(manifest.counts.journalEntries.cash).toBe(march);

      const copyId = (
        await server.api('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
          name: 'Main Street Bakery (March)',
        })
      ).body.entity.id;
      const imported = await books(
        ['import', exported, '-w', workspaceId, '-e', copyId, '--json'],
        env,
      );
      expect(JSON.parse(imported.stdout).trialBalances).toEqual([
        { ledgerBasis: 'cash', matches: true, differences: [] },
      ]);
      const range = { startDate: '2025-03-01', endDate: '2025-03-31' };
      const movement = async (id: string) =>
        (
          await server.api(
            'GET',
            `/platform/v1/entities/${id}/reports/profit-and-loss?${new URLSearchParams(range)}`,
          )
        ).body.report.sections.map((section: any) => [section.section, section.total]);
      expect(await movement(copyId)).toEqual(await movement(entityId));
    }, 120_000);
  });

  describe('a generated ledger of about 100,000 postings on both ledgers', () => {
    let server: Server;
    let entityId: string;
    let postings: number;

    beforeAll(async () => {
      const file = path.join(home.home, 'generated.sqlite');
      const stored = await storeGeneratedBooks(file, 28_000);
      entityId = stored.entityId;
      postings = stored.ledger.entries.reduce((n, e) => n + e.lines.length, 0);
      server = await serveBooks(home, ['--db', file], { asGiven: true });
    }, 240_000);
    afterAll(() => server?.stop());

    it('into a new workspace on a custom chart: every report by month on both ledgers, to the cent', async () => {
      expect(postings).toBeGreaterThan(95_000);
      const exported = path.join(home.home, 'generated-export');
      const exportRun = await books(['export', exported, '-e', entityId, '--json'], server.env);
      const { manifest } = JSON.parse(exportRun.stdout);
      expect(manifest.counts.journalEntries.cash + manifest.counts.journalEntries.accrual).toBe(
        28_000,
      );
      // The opening balance is on both ledgers, from the general ledger.
      expect(manifest.counts.platformPostings).toEqual({ cash: 1, accrual: 1 });
      expect(manifest.entriesTrialBalance).toEqual(manifest.trialBalance);

      const workspace = await server.api('POST', '/platform/v1/workspaces', { name: 'Moved' });
      const workspaceId = workspace.body.workspace.id;
      expect(
        (
          await server.api('PATCH', `/sandbox/v1/workspaces/${workspaceId}`, {
            customChartOfAccounts: true,
          })
        ).status,
      ).toBe(200);
      const copyId = (
        await server.api('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
          name: 'Generated Co (moved)',
        })
      ).body.entity.id;
      await books(['import', exported, '-w', workspaceId, '-e', copyId], server.env);

      const range = { startDate: '2024-12-01', endDate: '2026-01-31' };
      expect(await monthlyReports(server, copyId, range, ['cash', 'accrual'], false)).toEqual(
        await monthlyReports(server, entityId, range, ['cash', 'accrual'], false),
      );
    }, 240_000);
  });
});
