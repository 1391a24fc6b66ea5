import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/engine/ids.js';
import { Store } from '../../src/platform/store/index.js';
import { MIGRATIONS } from '../../src/platform/store/sqlite/migrations.js';
import { sqliteOf } from '../helpers/server.js';

describe('the platform database (a real SQLite file)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'books-db-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in WAL mode with foreign keys on, every migration applied once', async () => {
    const file = path.join(dir, 'platform.sqlite');
    const store = await Store.open(file);
    const db = sqliteOf(store);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const versions = () =>
      db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions()).toEqual(MIGRATIONS.map((m) => m.version));
    await store.close();

    const reopened = await Store.open(file);
    expect(sqliteOf(reopened).prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(
      MIGRATIONS.length,
    );
    await reopened.close();
  });

  it('numbers migrations 1, 2, 3… with no gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('refuses a database migrated by a newer books, and changes nothing in it', async () => {
    const file = path.join(dir, 'platform.sqlite');
    await (await Store.open(file)).close();
    const newer = MIGRATIONS.length + 1;
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(newer, 'from the future', new Date().toISOString());
    raw.close();
    await expect(Store.open(file)).rejects.toThrow(
      `cannot use the database ${file}: its schema is version ${newer}, newer than this books knows (${MIGRATIONS.length}): upgrade books to use it`,
    );
  });

  it('keeps data across a reopen and cascades a workspace delete', async () => {
    const file = path.join(dir, 'platform.sqlite');
    const store = await Store.open(file);
    const organization = await store.organizations.insert({
      id: newId(),
      name: 'Firm',
      createdAt: new Date().toISOString(),
    });
    const workspace = {
      id: newId(),
      name: 'W',
      timezone: 'UTC' as const,
      createdAt: new Date().toISOString(),
    };
    await store.workspaces.insert(organization.id, workspace);
    const entityId = newId();
    await store.entities.insert({
      id: entityId,
      workspaceId: workspace.id,
      name: 'E',
      bookkeepingStartDate: null,
      lockDate: null,
      fiscalYearStart: '01-01',
      accrualLedgerOpen: false,
      createdAt: workspace.createdAt,
    });
    await store.close();

    const reopened = await Store.open(file);
    expect((await reopened.entities.find(organization.id, entityId))?.name).toBe('E');
    await reopened.workspaces.delete(workspace.id);
    expect(await reopened.entities.find(organization.id, entityId)).toBeUndefined();
    await reopened.close();
  });
});
