import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/platform/store/migrations.js';
import { Store } from '../../src/platform/store/index.js';

describe('the platform database (a real SQLite file)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'books-db-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in WAL mode with foreign keys on, every migration applied once', () => {
    const file = path.join(dir, 'platform.sqlite');
    const store = Store.open(file);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    const versions = () =>
      store.db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions()).toEqual(MIGRATIONS.map((m) => m.version));
    store.close();

    const reopened = Store.open(file);
    expect(reopened.db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(
      MIGRATIONS.length,
    );
    reopened.close();
  });

  it('numbers migrations 1, 2, 3… with no gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('keeps data across a reopen and cascades a workspace delete', () => {
    const file = path.join(dir, 'platform.sqlite');
    const store = Store.open(file);
    const organization = store.organizations.insert({
      id: 'org-1',
      name: 'Firm',
      createdAt: new Date().toISOString(),
    });
    const workspace = {
      id: 'w1',
      name: 'W',
      timezone: 'UTC' as const,
      createdAt: new Date().toISOString(),
    };
    store.workspaces.insert(organization.id, workspace);
    store.entities.insert({
      id: 'e1',
      workspaceId: 'w1',
      name: 'E',
      bookkeepingStartDate: null,
      lockDate: null,
      accrualLedgerOpen: false,
      createdAt: workspace.createdAt,
    });
    store.close();

    const reopened = Store.open(file);
    expect(reopened.entities.find(organization.id, 'e1')?.name).toBe('E');
    reopened.workspaces.delete('w1');
    expect(reopened.entities.find(organization.id, 'e1')).toBeUndefined();
    reopened.close();
  });
});
