import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/platform/store/index.js';
import { freshPostgresDatabase, TEST_BACKEND, type TestDatabase } from '../helpers/backend.js';
import { runBooks, temporaryHome } from '../helpers/cli.js';
import { storeGeneratedBooks } from '../helpers/storedBooks.js';

interface Problem {
  kind: string;
  id: string;
  entityId?: string;
  message: string;
}

/**
 * `books db check` through the built binary, on a SQLite file or a PostgreSQL database: clean
 * books exit 0; each damage written behind the engine's back is named with its ids, exit 1.
 */
describe(`books db check (${TEST_BACKEND})`, () => {
  let home: ReturnType<typeof temporaryHome>;
  let postgres: TestDatabase | undefined;
  let location: string;
  let books: Awaited<ReturnType<typeof storeGeneratedBooks>>;

  beforeEach(async () => {
    home = temporaryHome();
    if (TEST_BACKEND === 'postgres') {
      postgres = await freshPostgresDatabase();
      location = postgres.url;
      // Its own check (amcheck) runs where the database has the extension.
      const client = new pg.Client({ connectionString: location });
      await client.connect();
      await client.query('CREATE EXTENSION IF NOT EXISTS amcheck');
      await client.end();
    } else {
      location = path.join(home.home, 'books.sqlite');
    }
    books = await storeGeneratedBooks(location, 1500);
  }, 60_000);
  afterEach(async () => {
    await postgres?.drop();
    postgres = undefined;
    home.cleanup();
  });

  const check = async () => {
    const result = await runBooks(['db', 'check', '--db', location, '--json'], home.env);
    return { ...result, report: JSON.parse(result.stdout) as { problems: Problem[] } };
  };

  it('passes clean books: exit 0, the database own check run, no problems', async () => {
    const result = await runBooks(['db', 'check', '--db', location], home.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      TEST_BACKEND === 'postgres' ? "PostgreSQL's amcheck" : "SQLite's integrity_check",
    );
    expect(result.stderr).toMatch(/[\d,]+ postings of 1,500 journal entries/);
    expect(result.stderr).toContain('books: no problems found');
    expect(result.stderr).not.toContain(':books@');
    const json = await check();
    expect(json.code).toBe(0);
    expect(json.report.problems).toEqual([]);
  });

  it('names an unbalanced entry, a stale daily sum, an orphan line and a broken kept answer', async () => {
    const store = await Store.open(location);
    const sql = store.database.sql;
    type Line = {
      id: number;
      entity_seq: number;
      basis: number;
      account_seq: number;
      day: string;
      entry_id: string;
    };
    const lines = await sql.all<Line>(
      `SELECT p.id, p.entity_seq, p.basis, p.account_seq, p.day, j.id AS entry_id
       FROM postings p JOIN journal_entries j ON p.source_kind = 0 AND j.seq = p.source_seq
       WHERE p.debit_cents > 0 ORDER BY p.id`,
    );
    const [unbalanced, orphan] = [lines[0]!, lines[lines.length - 1]!];
    // A debit raised by a dollar, its daily sum with it: the entry alone is wrong.
    await sql.run('UPDATE postings SET debit_cents = debit_cents + 100 WHERE id = ?', [
      unbalanced.id,
    ]);
    await sql.run(
      `UPDATE daily_balances SET debit_cents = debit_cents + 100
       WHERE entity_seq = ? AND basis = ? AND account_seq = ? AND day = ?`,
      [unbalanced.entity_seq, unbalanced.basis, unbalanced.account_seq, unbalanced.day],
    );
    // A daily sum of another account and day, seven cents off.
    const stale = (await sql.get<{
      account_id: string;
      day: string;
      entity_seq: number;
      basis: number;
      account_seq: number;
    }>(
      `SELECT a.id AS account_id, d.day, d.entity_seq, d.basis, d.account_seq
       FROM daily_balances d JOIN accounts a ON a.seq = d.account_seq
       WHERE d.account_seq <> ? ORDER BY d.day DESC, d.account_seq LIMIT 1`,
      [unbalanced.account_seq],
    ))!;
    await sql.run(
      `UPDATE daily_balances SET credit_cents = credit_cents + 7
       WHERE entity_seq = ? AND basis = ? AND account_seq = ? AND day = ?`,
      [stale.entity_seq, stale.basis, stale.account_seq, stale.day],
    );
    // A line moved to an account no entity has (on SQLite, past its foreign key, as a tool
    // writing to the file behind the engine's back would).
    if (store.dialect === 'sqlite') await sql.run('PRAGMA foreign_keys = OFF');
    await sql.run('UPDATE postings SET account_seq = 999999 WHERE id = ?', [orphan.id]);
    // A kept answer whose headers were cut short.
    await sql.run("UPDATE idempotency_keys SET headers = '{\"content-' WHERE key = ?", [
      books.idempotencyKey,
    ]);
    await store.close();

    const { code, report, stderr } = await check();
    expect(code, stderr).toBe(1);
    const named = (kind: string, id: string) =>
      report.problems.find((p) => p.kind === kind && p.id === id);
    expect(named('unbalanced_entry', unbalanced.entry_id)?.message).toContain(
      'does not balance on the',
    );
    expect(named('unbalanced_entry', unbalanced.entry_id)?.entityId).toBe(books.entityId);
    expect(named('stale_daily_sum', stale.account_id)?.message).toContain(String(stale.day));
    expect(named('orphan_line', orphan.entry_id)?.message).toContain('account #999999');
    expect(named('idempotency_record', books.idempotencyKey)?.message).toContain(
      'headers do not read',
    );
    // Nothing else is blamed: the moved line leaves its day's sums stale, and nothing more.
    expect(
      report.problems.filter(
        (p) =>
          !['unbalanced_entry', 'orphan_line', 'idempotency_record'].includes(p.kind) &&
          !(p.kind === 'stale_daily_sum'),
      ),
    ).toEqual([]);

    // On a terminal's table: every id there, and why.
    const human = await runBooks(['db', 'check', '--db', location], home.env);
    expect(human.code).toBe(1);
    for (const id of [unbalanced.entry_id, stale.account_id, orphan.entry_id]) {
      expect(human.stdout).toContain(id);
    }
    expect(human.stderr).toMatch(/books: \d+ problems found/);
  });

  it.runIf(TEST_BACKEND === 'sqlite')(
    "checks the local platform's own file when no --db is given",
    async () => {
      const env = { ...home.env, BOOKS_DATABASE_URL: '' };
      const none = await runBooks(['db', 'check'], env);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/cannot use the database .*platform\.sqlite: no such file/);
      expect((await runBooks(['workspace', 'create', 'Checked'], env)).code).toBe(0);
      const result = await runBooks(['db', 'check'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/books: checked .*platform\.sqlite/);
    },
  );
});
