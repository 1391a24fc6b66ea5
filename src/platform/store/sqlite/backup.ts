import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteUnavailable } from './database.js';

const PROGRESS_STEPS = 100;

/** How far a copy has come, in pages. */
export type PageProgress = (copied: number, total: number) => void;

/**
 * Copies a SQLite database with SQLite's online backup, as it was when the copy began: the
 * copy reads inside one read transaction, so another process's writes meanwhile go on (into the
 * WAL) and neither restart the copy (the backup API alone restarts it from the first page at
 * every write by another connection: under an import it never ended) nor tear it. The copy is
 * made readable by its owner only (it holds token hashes and webhook secrets).
 */
export async function copySqliteDatabase(
  source: string,
  destination: string,
  progress: PageProgress = () => {},
): Promise<void> {
  let db: Database.Database;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw sqliteUnavailable(source, error);
  }
  try {
    db.exec('BEGIN');
    // The snapshot is taken at the first read.
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    writeFileSync(destination, '', { mode: 0o600, flag: 'wx' });
    let pages = 0;
    await db.backup(destination, {
      progress({ totalPages, remainingPages }) {
        pages = totalPages;
        progress(totalPages - remainingPages, totalPages);
        // About a hundred steps, each a chance for progress and for the event loop.
        return Math.max(256, Math.ceil(totalPages / PROGRESS_STEPS));
      },
    });
    // SQLite tells how far it is before each step, not after the last.
    progress(pages, pages);
    db.exec('COMMIT');
    asOneFile(destination);
  } catch (error) {
    rmSync(destination, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/**
 * A database taken out of WAL mode, its WAL folded in: one file, nothing beside it to lose or to
 * leave behind when it is moved (a server opening it puts it back in WAL mode).
 */
export function asOneFile(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Another process (a `books serve`, a command on the local platform) has the file open. */
export class DatabaseInUse extends Error {
  override name = 'DatabaseInUse';
  constructor(readonly file: string) {
    super(
      `${file} is open in another process (books serve, or a command on the local platform): stop it first; nothing was replaced`,
    );
  }
}

/**
 * Puts `replacement` (a checked copy) in place of `target` while no other connection has the
 * target open, keeping the target as `keptAs` (one file, its WAL folded in). Whether another has it open is asked of SQLite
 * itself: leaving WAL mode needs every other connection gone (any process, stale ones excepted),
 * and the write lock taken then keeps a server from opening it until the swap is done.
 */
export function replaceSqliteDatabase(target: string, replacement: string, keptAs: string): void {
  if (!existsSync(target)) {
    renameSync(replacement, target);
    return;
  }
  const db = new Database(target, { fileMustExist: true, timeout: 0 });
  try {
    try {
      db.pragma('journal_mode = DELETE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
        throw new DatabaseInUse(target);
      }
      throw sqliteUnavailable(target, error);
    }
    renameSync(target, keptAs);
    renameSync(replacement, target);
    db.exec('ROLLBACK');
  } finally {
    db.close();
  }
}

/**
 * Whether the file is open in another process now: a connection in exclusive locking mode cannot
 * begin while another has it open. Nothing is written (a WAL left by a crash is folded in).
 */
export function sqliteDatabaseInUse(target: string): boolean {
  if (!existsSync(target)) return false;
  const db = new Database(target, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? '');
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    throw sqliteUnavailable(target, error);
  } finally {
    db.close();
  }
}
