import { Store, type StoreOptions } from '../index.js';
import { SqliteBackend } from './backend.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteJournalEntryStore } from './journalEntries.js';
import { SqlitePostingStore } from './postings.js';

/** The store on a SQLite file (or `:memory:`), opened and migrated. */
export function openSqliteStore(filename: string, options: StoreOptions = {}): Store {
  const backend = SqliteBackend.open(filename, options);
  return new Store(backend, {
    journalEntries: new SqliteJournalEntryStore(backend.db, backend.sql),
    postings: new SqlitePostingStore(backend.db, backend.sql),
    idempotency: new SqliteIdempotencyStore(backend.sql, backend),
  });
}
