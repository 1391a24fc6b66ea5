import type { CheckedDatabase } from '../check.js';
import type { OpenedDatabase, StoreOptions } from '../opened.js';
import { DatabaseUnavailable } from '../schema.js';
import { PostgresBackend } from './backend.js';
import { MIGRATIONS } from './migrations.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { PostgresJournalEntryStore } from './journalEntries.js';
import { PostgresPostingStore } from './postings.js';

/** A PostgreSQL database, connected and migrated, for the store (Store.open). */
export async function openPostgresStore(
  url: string,
  options: StoreOptions = {},
): Promise<OpenedDatabase> {
  const backend = await PostgresBackend.open(url, options);
  return {
    database: backend,
    dialectStores: {
      journalEntries: new PostgresJournalEntryStore(backend.sql),
      postings: new PostgresPostingStore(backend.sql),
      idempotency: new PostgresIdempotencyStore(backend.sql),
    },
  };
}

/**
 * A PostgreSQL database read as it is (`books db check`): not migrated, nothing written. Its own
 * check is the `amcheck` extension's, when the database has it: every B-tree index of the
 * books' tables against its table, and the tables' pages (`verify_heapam`).
 */
export async function openPostgresForChecking(url: string): Promise<CheckedDatabase> {
  const backend = PostgresBackend.connect(url, { poolSize: 2 });
  try {
    const known = Math.max(...MIGRATIONS.map((m) => m.version));
    const version = await backend.schemaVersion();
    if (version !== known) {
      throw new DatabaseUnavailable(
        backend.location,
        version === 0
          ? 'it holds no books (no schema of books in it)'
          : version > known
            ? `its schema is version ${version}, newer than this books knows (${known}): upgrade books to check it`
            : `its schema is version ${version}, older than this books (${known}): start books serve on it once to bring it up to date`,
      );
    }
  } catch (error) {
    await backend.close();
    throw backend.unavailable(error) ?? error;
  }
  const sql = backend.sql;
  return {
    location: backend.location,
    sql,
    idempotency: new PostgresIdempotencyStore(sql),
    async integrity() {
      const installed = await sql.get(
        "SELECT 1 AS found FROM pg_extension WHERE extname = 'amcheck'",
      );
      if (installed === undefined) {
        return {
          method:
            "none: PostgreSQL's amcheck extension is not installed in this database (CREATE EXTENSION amcheck, as its owner, lets books db check use it)",
          problems: [],
        };
      }
      const problems: string[] = [];
      const indexes = await sql.all<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE am.amname = 'btree' AND n.nspname = current_schema() ORDER BY c.relname`,
      );
      for (const { name } of indexes) {
        try {
          await sql.run('SELECT bt_index_check(to_regclass(?), true)', [name]);
        } catch (error) {
          problems.push(`index ${name}: ${(error as Error).message}`);
        }
      }
      const pages = await sql.all<{ relname: string; blkno: number; msg: string }>(
        `SELECT c.relname, v.blkno, v.msg FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace, verify_heapam(c.oid) v
         WHERE c.relkind = 'r' AND n.nspname = current_schema() LIMIT 1000`,
      );
      for (const page of pages)
        problems.push(`table ${page.relname}, page ${page.blkno}: ${page.msg}`);
      return { method: "PostgreSQL's amcheck (bt_index_check, verify_heapam)", problems };
    },
    close: () => backend.close(),
  };
}
