import { accessSync, chmodSync, constants, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkSchemaVersion, DatabaseUnavailable, SchemaTooNew } from '../schema.js';
import { BACKSTOP_PAGES } from './checkpointer.js';
import { MIGRATIONS } from './migrations.js';

export type SqliteDatabase = Database.Database;

export interface DatabaseTuning {
  /** SQLite's page cache in MB (default 64: reports and imports on million-line ledgers). */
  cacheMb?: number;
  /** Memory-mapped I/O in MB (default 0: off). */
  mmapMb?: number;
  /** How long to wait for another process's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Checkpoint from a thread of its own (`books serve`: see Checkpointer), the connection's own
   * checkpoints only a backstop. A command that opens the file for a moment goes without.
   */
  backgroundCheckpoints?: boolean;
}

/**
 * Opens the platform's database (a file, or `:memory:`), sets WAL and foreign keys, and applies
 * the numbered schema migrations not yet applied.
 */
export function openDatabase(filename: string, tuning: DatabaseTuning = {}): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    if (filename !== ':memory:') keepPrivate(filename);
    db = new Database(filename);
    db.pragma(`busy_timeout = ${tuning.busyTimeoutMs ?? 5000}`);
    if (filename !== ':memory:') db.pragma('journal_mode = WAL');
    configure(db, tuning);
    // Read what is there: a file that is not a database, or a damaged one, says so here.
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    applyMigrations(db);
    return db;
  } catch (error) {
    db?.close();
    throw sqliteUnavailable(filename, error);
  }
}

/** Why a SQLite database cannot be used, in the words of DatabaseUnavailable. */
export function sqliteUnavailable(filename: string, cause: unknown): DatabaseUnavailable {
  return new DatabaseUnavailable(filename, whyUnavailable(filename, cause), cause);
}

function whyUnavailable(filename: string, error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? '');
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code.startsWith('SQLITE_READONLY')) {
    return 'it is read-only (books writes to it and to its directory)';
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return 'it is locked by another process';
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return 'it is not a SQLite database, or it is damaged';
  }
  if (code === 'SQLITE_FULL') return 'the disk is full';
  if (error instanceof SchemaTooNew) return error.message;
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR')) {
    // SQLite keeps a -wal and a -shm file beside the database: both must be writable.
    for (const [where, mode] of [
      [filename, constants.R_OK | constants.W_OK],
      [path.dirname(filename), constants.W_OK],
    ] as const) {
      try {
        accessSync(where, mode);
      } catch (access) {
        const reason = (access as NodeJS.ErrnoException).code;
        if (reason === 'EROFS') return 'it is read-only (on a read-only file system)';
        if (reason === 'EACCES') {
          return where === filename
            ? 'permission denied (it must be readable and writable)'
            : 'it is read-only (books writes to it and to its directory)';
        }
        if (reason === 'ENOENT' && where !== filename) {
          return 'it cannot be created there (no such directory)';
        }
      }
    }
    return `it cannot be opened (${(error as Error).message})`;
  }
  return (error as Error)?.message ?? String(error);
}

function configure(db: SqliteDatabase, tuning: DatabaseTuning): void {
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // The postings indexes run to hundreds of MB on million-line ledgers; SQLite's default 2 MB
  // page cache would send most index updates and report scans to the OS. 64 MB and no memory
  // map (beyond that, reads go through the OS's file cache): on 2,000,000 postings `serve`'s
  // peak RSS was 570 MB with 256 MB and a 1 GB map, 239 MB with these, and the reports and the
  // general ledger took as long (test/bench, issue 19's note).
  db.pragma(`cache_size = -${(tuning.cacheMb ?? 64) * 1024}`);
  db.pragma(`mmap_size = ${(tuning.mmapMb ?? 0) * 1024 * 1024}`);
  db.pragma('temp_store = MEMORY');
  // Checkpoint every 16 MB of WAL rather than 4 MB: each checkpoint fsyncs, and bulk imports
  // would otherwise spend most of their time there. The WAL is trimmed back to 64 MB after.
  // Where a thread checkpoints (books serve), only as a backstop.
  db.pragma(`wal_autocheckpoint = ${tuning.backgroundCheckpoints ? BACKSTOP_PAGES : 4000}`);
  db.pragma('journal_size_limit = 67108864');
}

/**
 * The database holds webhook secrets and token hashes: it is created readable by its owner only
 * (0600), and an older file readable by others is narrowed to that. SQLite gives its -wal and
 * -shm files the database's mode.
 */
function keepPrivate(filename: string): void {
  try {
    writeFileSync(filename, '', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return; // SQLite says what is wrong
    const { mode, uid } = statSync(filename);
    if ((mode & 0o077) !== 0 && uid === process.getuid?.()) chmodSync(filename, mode & 0o600);
  }
}

/**
 * Applies the migrations not yet applied, all in one transaction that takes the write lock
 * first (`BEGIN IMMEDIATE`): processes that open one file together (`serve --workers`) migrate
 * it once. A database migrated by a newer `books` is refused, untouched.
 */
export function applyMigrations(db: SqliteDatabase): void {
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const applied = new Set(
      db
        .prepare('SELECT version FROM schema_migrations')
        .pluck()
        .all()
        .map((v) => Number(v)),
    );
    checkSchemaVersion(Math.max(0, ...applied), MIGRATIONS);
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
  }).immediate();
}

/**
 * INSERTs of many rows per statement, for bulk writes: one statement per `chunkRows` rows
 * instead of one per row, each prepared on first use for its row count. Rows are flat: the
 * values of row 1, then of row 2, in `columns` order.
 */
export class MultiRowInsert {
  private readonly statements = new Map<number, Database.Statement>();
  private readonly rowPlaceholders: string;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly chunkRows: number,
  ) {
    this.rowPlaceholders = `(${columns.map(() => '?').join(', ')})`;
  }

  /**
   * Writes `values.length / columns.length` rows. The values are passed as arguments, not as
   * one array: better-sqlite3 reads an array's elements one property lookup at a time through
   * V8's API, which measured as 4–9% of a bulk journal entry write.
   */
  run(values: readonly unknown[]): void {
    const width = this.columns.length;
    const chunk = this.chunkRows * width;
    for (let start = 0; start < values.length; start += chunk) {
      const part = values.slice(start, start + chunk);
      this.statementFor(part.length / width).run(...part);
    }
  }

  private statementFor(rows: number): Database.Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      statement = this.db.prepare(
        `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${Array(rows)
          .fill(this.rowPlaceholders)
          .join(', ')}`,
      );
      this.statements.set(rows, statement);
    }
    return statement;
  }
}
