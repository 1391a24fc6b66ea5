import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Migration } from '../../src/platform/store/schema.js';
import { Store } from '../../src/platform/store/index.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/platform/store/sqlite/migrations.js';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/platform/store/postgres/migrations.js';
import { POSTGRES_ADMIN_URL, TEST_BACKEND } from '../helpers/backend.js';

/**
 * A database of the books before bank transactions could be decided (SQLite's schema 9,
 * PostgreSQL's 2), with transactions a rule categorized and one that waited, opened by this
 * books: migrated in place, the rule's decisions kept as the rule's, the waiting one waiting,
 * and every decision possible on them.
 */
const BEFORE = TEST_BACKEND === 'postgres' ? 2 : 9;

interface OldDatabase {
  location: string;
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
  drop(): Promise<void>;
}

async function oldDatabase(): Promise<OldDatabase> {
  const migrations: Migration[] = (
    TEST_BACKEND === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS
  ).filter((m) => m.version <= BEFORE);
  if (TEST_BACKEND === 'postgres') {
    const admin = process.env[POSTGRES_ADMIN_URL]!;
    const name = `books_upgrade_${randomBytes(6).toString('hex')}`;
    const adminClient = new pg.Client({ connectionString: admin });
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE ${name}`);
    await adminClient.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)',
    );
    for (const m of migrations) {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations VALUES ($1, $2, now())', [
        m.version,
        m.name,
      ]);
    }
    let dollar = 0;
    return {
      location: url.toString(),
      run: async (sql, params = []) => {
        dollar = 0;
        await client.query(
          sql.replace(/\?/g, () => `$${++dollar}`),
          params,
        );
      },
      close: () => client.end(),
      drop: async () => {
        const again = new pg.Client({ connectionString: admin });
        await again.connect();
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await again.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-upgrade-'));
  const file = path.join(dir, 'platform.sqlite');
  const db = new Database(file);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of migrations) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
      m.version,
      m.name,
      new Date().toISOString(),
    );
  }
  return {
    location: file,
    run: async (sql, params = []) => {
      db.prepare(sql).run(...(params as unknown[]));
    },
    close: async () => {
      db.close();
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe(`a database of books before decisions (schema ${BEFORE}), opened by this books`, () => {
  let old: OldDatabase | undefined;
  afterEach(async () => {
    await old?.drop();
  });

  it('is migrated in place: what a rule categorized stays the rule’s, what waited waits; both can be decided', async () => {
    old = await oldDatabase();
    const ids = {
      org: '00000000-0000-4000-8000-000000000001',
      workspace: '00000000-0000-4000-8000-000000000002',
      entity: '00000000-0000-4000-8000-000000000003',
      checking: '00000000-0000-4000-8000-000000000004',
      telephone: '00000000-0000-4000-8000-000000000005',
      financial: '00000000-0000-4000-8000-000000000006',
      rule: '00000000-0000-4000-8000-000000000007',
      categorized: '00000000-0000-4000-8000-000000000008',
      waiting: '00000000-0000-4000-8000-000000000009',
    };
    const at = '2026-01-02T00:00:00.000Z';
    await old.run('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)', [
      ids.org,
      'Firm',
      at,
    ]);
    await old.run(
      'INSERT INTO workspaces (id, organization_id, name, timezone, created_at) VALUES (?, ?, ?, ?, ?)',
      [ids.workspace, ids.org, 'W', 'UTC', at],
    );
    await old.run('INSERT INTO entities (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)', [
      ids.entity,
      ids.workspace,
      'E',
      at,
    ]);
    for (const [id, name, code, type] of [
      [ids.checking, 'Checking', '1000', 'Cash'],
      [ids.telephone, 'Telephone', '6000', 'Operating Expenses'],
    ])
      await old.run(
        'INSERT INTO accounts (id, entity_id, name, name_key, code, type, financial_account_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          id,
          ids.entity,
          name,
          name!.toLowerCase(),
          code,
          type,
          id === ids.checking ? ids.financial : null,
          at,
        ],
      );
    await old.run(
      'INSERT INTO financial_accounts (id, entity_id, name, kind, chart_account_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [ids.financial, ids.entity, 'Checking', 'bank', ids.checking, at],
    );
    for (const [id, description, accountId, ruleId] of [
      [ids.categorized, 'VERIZON WIRELESS', ids.telephone, ids.rule],
      [ids.waiting, 'SOMETHING NEW', null, null],
    ])
      await old.run(
        'INSERT INTO bank_transactions (id, entity_id, financial_account_id, date, amount_cents, description, external_id, account_id, rule_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          id,
          ids.entity,
          ids.financial,
          '2026-01-05',
          -8999,
          description,
          null,
          accountId,
          ruleId,
          at,
        ],
      );
    await old.close();

    const store = await Store.open(old.location);
    try {
      const [categorized, waiting] = await store.bankTransactions
        .byIds(ids.entity, [ids.categorized, ids.waiting])
        .then((rows) => [ids.categorized, ids.waiting].map((id) => rows.find((r) => r.id === id)!));
      expect(categorized).toMatchObject({
        status: 'categorized',
        decidedBy: 'rule',
        ruleId: ids.rule,
        accountId: ids.telephone,
        version: 0,
        transferId: null,
        matchedEntryId: null,
      });
      expect(categorized!.decidedAt).not.toBeNull();
      expect(waiting).toMatchObject({
        status: 'uncategorized',
        decidedBy: null,
        decidedAt: null,
        version: 0,
      });
      expect((await store.bankTransactions.waiting(ids.entity)).map((t) => t.id)).toEqual([
        ids.waiting,
      ]);
      await store.transaction(() =>
        store.bankTransactions.decide(
          waiting!.seq,
          {
            status: 'categorized',
            accountId: null,
            ruleId: null,
            decidedBy: 'person',
            decidedAt: at,
            memo: null,
            transferId: null,
            matchedEntryId: null,
          },
          [
            { accountId: ids.telephone, amountCents: -4000 as never, memo: null },
            { accountId: ids.telephone, amountCents: -4999 as never, memo: 'rest' },
          ],
        ),
      );
      const splits = await store.bankTransactions.splitsOf([waiting!.seq]);
      expect(splits.get(waiting!.seq)!.map((p) => p.memo)).toEqual([null, 'rest']);
    } finally {
      await store.close();
    }
  }, 60_000);
});
