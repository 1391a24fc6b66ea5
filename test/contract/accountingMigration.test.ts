import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import { createOrganization, errorOf, startServer, type TestServer } from '../helpers/server.js';

const until = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('accounting migration', () => {
  let server: TestServer;
  let books: TestEntity;
  let migration: string;

  beforeAll(async () => {
    server = await startServer({ ruleGenerationDelayMs: 50 });
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server);
    migration = `${books.base}/accounting-migration`;
    await server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, {
      body: { bookkeepingStartDate: '2026-01-01' },
    });
  });

  it('create: 201, then 409 for a second; 400 without a bookkeepingStartDate; 409 with opening balances', async () => {
    const created = await server.request('POST', migration);
    expect(created.status).toBe(201);
    expect(created.body.accountingMigration).toEqual({
      id: expect.any(String),
      enrichmentRulesSeededAt: null,
      createdAt: expect.any(String),
    });
    expect(errorOf(await server.request('POST', migration))).toEqual({
      status: 409,
      message: 'the entity already has an accounting migration',
      traceMatches: true,
    });
    expect((await server.request('GET', migration)).body).toEqual(created.body);

    const noStart = await createEntity(server);
    expect(errorOf(await server.request('POST', `${noStart.base}/accounting-migration`))).toEqual({
      status: 400,
      message: 'the entity has no bookkeepingStartDate: set it before migrating its history',
      traceMatches: true,
    });

    const opened = await createEntity(server);
    await server.request('PATCH', `/sandbox/v1/entities/${opened.entityId}`, {
      body: { bookkeepingStartDate: '2026-01-01' },
    });
    const cash = await opened.account('Checking', 'Cash');
    const equity = await opened.account('Equity', 'Equity');
    await server.request('POST', `/sandbox/v1/entities/${opened.entityId}/opening-balances`, {
      body: {
        date: '2025-12-31',
        lines: [
          { accountId: cash.id, debitAmount: 1 },
          { accountId: equity.id, creditAmount: 1 },
        ],
      },
    });
    expect((await server.request('POST', `${opened.base}/accounting-migration`)).status).toBe(409);
  });

  it('GET and generate answer 404 without a migration; another organization sees 404', async () => {
    expect(errorOf(await server.request('GET', migration))).toEqual({
      status: 404,
      message: 'accounting migration not found',
      traceMatches: true,
    });
    expect((await server.request('POST', `${migration}/generate-transaction-rules`)).status).toBe(
      404,
    );
    await server.request('POST', migration);
    const { token } = await createOrganization(server);
    expect((await server.request('GET', migration, { token })).status).toBe(404);
    expect((await server.request('POST', migration, { token })).status).toBe(404);
  });

  it('while open: entries are migration entries and transactions wait; finalizing generates rules and categorizes them', async () => {
    const travel = await books.account('Travel', 'Operating Expenses');
    const meals = await books.account('Meals', 'Operating Expenses');
    const cash = await books.account('Checking (old books)', 'Cash');
    await server.request('POST', migration);
    const lines = [
      ['2025-03-01', 'UBER *TRIP 8XJ2', travel.id],
      ['2025-04-01', 'UBER *TRIP 99KD', travel.id],
      ['2025-05-01', 'SQ *BLUE BOTTLE 0142', meals.id],
      ['2025-06-01', 'SQ *BLUE BOTTLE 0077', meals.id],
      ['2024-06-01', 'OLD *VENDOR 1', meals.id], // before the learning window
      ['2024-07-01', 'OLD *VENDOR 2', meals.id],
    ];
    const bulk = await server.request('POST', `${books.base}/journal-entries/bulk`, {
      body: {
        journalEntries: lines.map(([date, description, account]) => ({
          date,
          lines: [
            { accountId: account, debitAmount: 12.5, description },
            { accountId: cash.id, creditAmount: 12.5, description },
          ],
        })),
      },
    });
    expect(bulk.body.data.every((e: any) => e.sourceType === 'migration')).toBe(true);

    const connection = await server.request(
      'POST',
      `/sandbox/v1/entities/${books.entityId}/bank-feed-connections`,
      {
        body: { bankName: 'Chase', accounts: [{ name: 'Chase Checking', kind: 'bank' }] },
      },
    );
    const account = connection.body.connection.financialAccounts[0].id;
    const waiting = await server.request(
      'POST',
      `/sandbox/v1/financial-accounts/${account}/transactions`,
      {
        body: {
          transactions: [{ date: '2026-01-05', amount: -18, description: 'UBER *TRIP 5TT1' }],
        },
      },
    );
    expect(waiting.body.data[0].status).toBe('uncategorized');

    await server.request('PATCH', `/sandbox/v1/workspaces/${books.workspaceId}`, {
      body: { ruleGenerationEligible: false },
    });
    expect(
      errorOf(await server.request('POST', `${migration}/generate-transaction-rules`)),
    ).toEqual({
      status: 422,
      message: 'the workspace is not eligible for transaction rule generation',
      traceMatches: true,
    });
    await server.request('PATCH', `/sandbox/v1/workspaces/${books.workspaceId}`, {
      body: { ruleGenerationEligible: true },
    });
    const started = await server.request('POST', `${migration}/generate-transaction-rules`);
    expect(started.status).toBe(202);
    expect(started.body.accountingMigration.enrichmentRulesSeededAt).toBeNull();
    expect(
      errorOf(await server.request('POST', `${migration}/generate-transaction-rules`)),
    ).toMatchObject({ status: 409, message: 'transaction rules are being generated already' });

    await until(
      async () =>
        (await server.request('GET', migration)).body.accountingMigration
          .enrichmentRulesSeededAt !== null,
    );
    expect(
      errorOf(await server.request('POST', `${migration}/generate-transaction-rules`)),
    ).toMatchObject({ status: 409, message: 'transaction rules were generated already' });

    const generated = (
      await server.request('GET', `/sandbox/v1/entities/${books.entityId}/generated-rules`)
    ).body;
    expect(generated.data.map((r: any) => [r.conditions[0].value[0], r.actions[0].value])).toEqual([
      ['sq *blue bottle', meals.id],
      ['uber *trip', travel.id],
    ]);
    expect(
      (
        await server.request(
          'GET',
          `/platform/v1/workspaces/${books.workspaceId}/transaction-rules`,
        )
      ).body.data,
    ).toEqual([]);

    const after = (
      await server.request('GET', `/sandbox/v1/workspaces/${books.workspaceId}/transactions`)
    ).body.data;
    expect(after[0]).toMatchObject({ status: 'categorized', accountId: travel.id });
    const newEntry = await books.post(books.entry('2026-02-01', travel.id, cash.id, 1));
    expect(newEntry.body.journalEntry.sourceType).toBe('manual');
    const fresh = await server.request(
      'POST',
      `/sandbox/v1/financial-accounts/${account}/transactions`,
      {
        body: {
          transactions: [{ date: '2026-02-02', amount: -7, description: 'SQ *BLUE BOTTLE 9999' }],
        },
      },
    );
    expect(fresh.body.data[0]).toMatchObject({ status: 'categorized', accountId: meals.id });
  });
});

describe('rule generation across a restart', () => {
  it('runs again at start-up when the process stopped mid-job', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-migration-'));
    const database = path.join(dir, 'platform.sqlite');
    try {
      const first = await createPlatform({
        database,
        orgToken: 'tok',
        ruleGenerationDelayMs: 60_000,
      });
      const org = first.defaultOrganizationId;
      const workspace = await first.engine.workspaces.create(org, { name: 'W' });
      const entity = await first.engine.entities.create(org, workspace.id, {
        name: 'E',
        bookkeepingStartDate: '2026-01-01',
      });
      await first.engine.accountingMigrations.create(org, entity.id);
      await first.engine.accountingMigrations.generate(org, entity.id);
      // The process dies before the job's delay is over: its timer goes, nothing runs.
      await first.engine.accountingMigrations.stop({ flush: false });
      await first.close();

      const second = await createPlatform({ database, orgToken: 'tok', ruleGenerationDelayMs: 20 });
      await until(
        async () =>
          (await second.engine.accountingMigrations.get(org, entity.id)).enrichmentRulesSeededAt !==
          null,
      );
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
