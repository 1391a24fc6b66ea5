import { afterAll, describe, expect, it } from 'vitest';
import { LEFT_BEHIND, TABLES } from '../../src/platform/store/copy.js';
import { openSqliteStore } from '../../src/platform/store/sqlite/open.js';

/*
 * `books db copy` moves a firm's books from SQLite to PostgreSQL table by table: every table of
 * the schema is copied or left behind by name, so a table a migration adds is never lost
 * unseen (the tax codes, settings and filed returns once were).
 */
describe('db copy knows every table of the schema', () => {
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => close?.());

  it('copied or left behind, each by name', async () => {
    const opened = await openSqliteStore(':memory:');
    close = () => opened.database.close();
    const tables = (
      await opened.database.sql.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
    ).map((row) => row.name);
    const known = new Set<string>([...TABLES.map((table) => table.name), ...LEFT_BEHIND]);
    expect(tables.filter((name) => !known.has(name))).toEqual([]);
    expect(TABLES.map((table) => table.name)).toEqual(
      expect.arrayContaining(['tax_settings', 'tax_codes', 'tax_returns']),
    );
  });
});
