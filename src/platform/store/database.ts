import { chmodSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type SqliteDatabase = Database.Database;

/**
 * Opens the platform's database (a file, or `:memory:`), sets WAL and foreign keys, and applies
 * the numbered schema migrations not yet applied, each in its own transaction.
 */
export interface DatabaseTuning {
  /** SQLite's page cache in MB (default 256: reports and imports on million-line ledgers). */
  cacheMb?: number;
  /** Memory-mapped I/O in MB (default 1024; 0 turns it off). */
  mmapMb?: number;
}

export function openDatabase(filename: string, tuning: DatabaseTuning = {}): SqliteDatabase {
  if (filename !== ':memory:') keepPrivate(filename);
  const db = new Database(filename);
  if (filename !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // The postings indexes run to hundreds of MB on million-line ledgers; SQLite's default 2 MB
  // page cache would send most index updates and report scans to the OS.
  db.pragma(`cache_size = -${(tuning.cacheMb ?? 256) * 1024}`);
  db.pragma(`mmap_size = ${(tuning.mmapMb ?? 1024) * 1024 * 1024}`);
  db.pragma('temp_store = MEMORY');
  // Checkpoint every 16 MB of WAL rather than 4 MB: each checkpoint fsyncs, and bulk imports
  // would otherwise spend most of their time there. The WAL is trimmed back to 64 MB after.
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('journal_size_limit = 67108864');
  applyMigrations(db);
  return db;
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

export function applyMigrations(db: SqliteDatabase): void {
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
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
  }
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
