import Database from 'better-sqlite3';
import type { CheckedDatabase } from '../check.js';
import type { OpenedDatabase, StoreOptions } from '../opened.js';
import { DatabaseUnavailable } from '../schema.js';
import { sqliteUnavailable } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteBackend } from './backend.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteJournalEntryStore } from './journalEntries.js';
import { SqlitePostingStore } from './postings.js';

/** A SQLite file (or `:memory:`), opened and migrated, for the store (Store.open). */
export async function openSqliteStore(
  filename: string,
  options: StoreOptions = {},
): Promise<OpenedDatabase> {
  const backend = SqliteBackend.open(filename, options);
  const idempotency = new SqliteIdempotencyStore(backend.sql);
  try {
    await idempotency.clearInFlight();
  } catch (error) {
    await backend.close();
    throw backend.unavailable(error) ?? error;
  }
  return {
    database: backend,
    dialectStores: {
      journalEntries: new SqliteJournalEntryStore(backend.db, backend.sql),
      postings: new SqlitePostingStore(backend.db, backend.sql),
      idempotency,
    },
  };
}

/**
 * A SQLite file opened read-only, as it is: not migrated, nothing written, its WAL read in place
 * and never folded into it (`books db check`, a backup's own check).
 */
export function openSqliteForChecking(filename: string): CheckedDatabase {
  let db: Database.Database;
  try {
    db = new Database(filename, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw sqliteUnavailable(filename, error);
  }
  const backend = new SqliteBackend(db, filename);
  try {
    const known = Math.max(...MIGRATIONS.map((m) => m.version));
    let version = 0;
    try {
      version = Number(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get());
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      // A damaged first page is the integrity check's to say; no table of migrations, this one's.
      if (code !== 'SQLITE_ERROR') version = known;
    }
    if (version !== known) {
      throw new DatabaseUnavailable(
        filename,
        version === 0
          ? 'it is not a database of books'
          : version > known
            ? `its schema is version ${version}, newer than this books knows (${known}): upgrade books to check it`
            : `its schema is version ${version}, older than this books (${known}): open it once with this books (books serve --db FILE, or any command on the local platform) to bring it up to date`,
      );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    location: filename,
    sql: backend.sql,
    idempotency: new SqliteIdempotencyStore(backend.sql),
    async integrity() {
      const method = "SQLite's integrity_check";
      try {
        const rows = db.prepare('PRAGMA integrity_check(1000)').pluck().all() as string[];
        return { method, problems: rows.length === 1 && rows[0] === 'ok' ? [] : rows };
      } catch (error) {
        // integrity_check stops at a page it cannot walk: say which tables cannot be read through.
        const problems = [`integrity_check stopped: ${(error as Error).message}`];
        const tables = db
          .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rootpage")
          .pluck()
          .all() as string[];
        for (const table of tables) {
          let rows = 0;
          try {
            for (const _ of db.prepare(`SELECT * FROM "${table}"`).raw().iterate()) rows += 1;
          } catch (unread) {
            problems.push(
              `table ${table} cannot be read past its row ${rows.toLocaleString('en-US')}: ${(unread as Error).message}`,
            );
          }
        }
        return { method, problems };
      }
    },
    async close() {
      db.close();
    },
  };
}
