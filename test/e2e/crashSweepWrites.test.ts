import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';
import { killableServer, sendUntilKilled } from '../helpers/crashSweep.js';

const KILLS_PER_PHASE = 8;
const CONCURRENCY = 4;

interface Unit {
  name: string;
  method: string;
  url: string;
  body: string;
  /** The success status. */
  status: number;
  /** What identifies the write in its answer (to compare the first answer with every repeat). */
  idOf: (body: any) => string;
}

/**
 * issue 20: `kill -9` of `books serve` at random moments during each kind of keyed write — a
 * single journal entry, a bulk of accounts, a migration's creation and its finalization, a
 * webhook endpoint's registration (bulk entries: crashSweep.test.ts) — then every key retried:
 * each acknowledged write answers again with the same resource, nothing is in twice, and
 * SQLite's integrity check passes on the file.
 */
describe('books serve killed with SIGKILL during every kind of keyed write', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: ReturnType<typeof killableServer> | undefined;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(async () => {
    server?.kill();
    await server?.stopped();
    home.cleanup();
  });

  it('loses no acknowledged write and doubles none', async () => {
    const db = path.join(home.home, 'crash.sqlite');
    server = killableServer(home.env, db, SERVE_TOKEN);
    const { call } = server;
    const start = () => server!.start();
    await start();
    const { workspace } = (await call('POST', '/platform/v1/workspaces', '{"name":"Sweep"}')).body;
    const entity = async (name: string) => {
      const made = (
        await call(
          'POST',
          `/sandbox/v1/workspaces/${workspace.id}/entities`,
          JSON.stringify({ name }),
        )
      ).body.entity;
      await call(
        'PATCH',
        `/sandbox/v1/entities/${made.id}`,
        '{"bookkeepingStartDate":"2025-01-01"}',
      );
      return made.id as string;
    };
    const books = await entity('Killed Co');
    const [checking, sales] = (
      await call(
        'POST',
        `/platform/v1/entities/${books}/chart-of-accounts/bulk`,
        JSON.stringify({
          accounts: [
            { name: 'Checking', type: 'Cash' },
            { name: 'Sales', type: 'Income' },
          ],
        }),
      )
    ).body.data as { id: string }[];
    const migrating: string[] = [];
    for (let n = 0; n < 10; n += 1) migrating.push(await entity(`Migrating ${n}`));

    const units = (kind: string, count: number, make: (n: number) => Omit<Unit, 'name'>) =>
      Array.from({ length: count }, (_, n) => ({ name: `${kind}-${n}`, ...make(n) }));
    const firstPhase: Unit[] = [
      ...units('entry', 30, (n) => ({
        method: 'POST',
        url: `/platform/v1/entities/${books}/journal-entries`,
        body: JSON.stringify({
          date: `2025-03-${String((n % 28) + 1).padStart(2, '0')}`,
          memo: `entry ${n}`,
          lines: [
            { accountId: checking!.id, debitAmount: n + 1 },
            { accountId: sales!.id, creditAmount: n + 1 },
          ],
        }),
        status: 201,
        idOf: (body) => body.journalEntry.id,
      })),
      ...units('accounts', 15, (n) => ({
        method: 'POST',
        url: `/platform/v1/entities/${books}/chart-of-accounts/bulk`,
        body: JSON.stringify({
          accounts: [
            { name: `Expense ${n} a`, type: 'Operating Expenses' },
            { name: `Expense ${n} b`, type: 'Operating Expenses' },
          ],
        }),
        status: 201,
        idOf: (body) => body.data.map((a: { id: string }) => a.id).join(','),
      })),
      ...units('migration', migrating.length, (n) => ({
        method: 'POST',
        url: `/platform/v1/entities/${migrating[n]}/accounting-migration`,
        body: '',
        status: 201,
        idOf: (body) => body.accountingMigration.id ?? JSON.stringify(body.accountingMigration),
      })),
      ...units('webhook', 15, (n) => ({
        method: 'POST',
        url: '/sandbox/v1/webhook-endpoints',
        body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${n}` }),
        status: 201,
        idOf: (body) => body.endpoint.id,
      })),
    ];
    const secondPhase: Unit[] = units('finalize', migrating.length, (n) => ({
      method: 'POST',
      url: `/platform/v1/entities/${migrating[n]}/accounting-migration/generate-transaction-rules`,
      body: '',
      status: 202,
      idOf: (body) => body.accountingMigration.id ?? String(body.accountingMigration.entityId),
    }));

    const acknowledged = new Map<string, string>();
    const send = (unit: Unit) =>
      call(unit.method, unit.url, unit.body === '' ? undefined : unit.body, `sweep-${unit.name}`);
    /** Sends a phase's units, 4 at a time, killing the server after a random number of answers. */
    const sweep = async (phase: Unit[]) => {
      for (let kill = 0; kill < KILLS_PER_PHASE; kill += 1) {
        const queue = phase
          .filter((u) => !acknowledged.has(u.name))
          .sort(() => Math.random() - 0.5);
        if (queue.length === 0) break;
        const killed = await sendUntilKilled({
          concurrency: CONCURRENCY,
          killAfter: 1 + Math.floor(Math.random() * 6),
          next: () => queue.shift(),
          send: async (unit) => {
            const answer = await send(unit);
            expect(answer.status, `${unit.name}: ${JSON.stringify(answer.body)}`).toBe(unit.status);
            acknowledged.set(unit.name, unit.idOf(answer.body));
          },
          kill: () => server!.kill(),
        });
        if (!killed) server!.kill();
        await server!.stopped();
        await start();
      }
      // The phase's writes not yet acknowledged, without kills: the next phase builds on them.
      for (const unit of phase.filter((u) => !acknowledged.has(u.name))) {
        const answer = await send(unit);
        expect(answer.status, unit.name).toBe(unit.status);
        acknowledged.set(unit.name, unit.idOf(answer.body));
      }
    };
    await sweep(firstPhase);
    await sweep(secondPhase);

    // Every key again: the acknowledged ones answer what they answered, the rest are written now.
    for (const unit of [...firstPhase, ...secondPhase]) {
      const answer = await send(unit);
      expect(answer.status, unit.name).toBe(unit.status);
      const id = unit.idOf(answer.body);
      if (acknowledged.has(unit.name)) expect(id, unit.name).toBe(acknowledged.get(unit.name));
    }
    const entries = await call('GET', `/platform/v1/entities/${books}/journal-entries?limit=1`);
    expect(entries.body.pagination.total).toBe(30);
    const chart = await call('GET', `/platform/v1/entities/${books}/chart-of-accounts`);
    const names = chart.body.data.map((a: { name: string }) => a.name);
    expect(names).toHaveLength(2 + 30);
    expect(new Set(names).size).toBe(names.length);
    const endpoints = await call('GET', '/sandbox/v1/webhook-endpoints');
    expect(endpoints.body.pagination.total).toBe(15);
    for (const id of migrating) {
      const migration = await call('GET', `/platform/v1/entities/${id}/accounting-migration`);
      expect(migration.status).toBe(200);
    }
    server.kill('SIGTERM');
    await server.stopped();
    // A SQLite file is checked by SQLite itself; PostgreSQL keeps its own pages whole.
    if (TEST_BACKEND === 'sqlite') {
      const file = new Database(db, { readonly: true });
      try {
        expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        file.close();
      }
    }
  }, 180_000);
});
