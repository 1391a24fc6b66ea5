import type { IdempotencyStore } from './idempotency.js';
import type { JournalEntryStore } from './journalEntries.js';
import type { PostingStore } from './postings.js';
import type { SqlDatabase } from './sql.js';

/*
 * What a backend's opener hands the store (index.ts): the database, and the stores each backend
 * writes its own way. Kept below both, so that neither backend imports the store that loads it.
 */

/** What each backend writes its own way (its folder: sqlite/, postgres/). */
export interface DialectStores {
  journalEntries: JournalEntryStore;
  postings: PostingStore;
  idempotency: IdempotencyStore;
}

/** Where a store is: a SQLite file (or `:memory:`), or a PostgreSQL URL. */
export interface StoreOptions {
  /** SQLite memory settings (the embedded CLI keeps them small). */
  cacheMb?: number;
  mmapMb?: number;
  busyTimeoutMs?: number;
  /** SQLite: checkpoint from a thread of its own (books serve). */
  backgroundCheckpoints?: boolean;
  /** PostgreSQL connections per process. */
  poolSize?: number;
}

/** A database a backend opened and migrated, with its own stores. */
export interface OpenedDatabase {
  database: SqlDatabase;
  dialectStores: DialectStores;
}
