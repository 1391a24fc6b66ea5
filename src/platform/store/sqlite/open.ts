import { Store, type StoreOptions } from '../index.js';
import { SqliteBackend } from './backend.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteJournalEntryStore } from './journalEntries.js';
import { SqlitePostingStore } from './postings.js';

/** The store on a SQLite file (or `:memory:`), opened and migrated. */
export async function openSqliteStore(
  filename: string,
  options: StoreOptions = {},
): Promise<Store> {
  const backend = SqliteBackend.open(filename, options);
  const idempotency = new SqliteIdempotencyStore(backend.sql);
  try {
    await idempotency.clearInFlight();
  } catch (error) {
    await backend.close();
    throw backend.unavailable(error) ?? error;
  }
  return new Store(backend, {
    journalEntries: new SqliteJournalEntryStore(backend.db, backend.sql),
    postings: new SqlitePostingStore(backend.db, backend.sql),
    idempotency,
  });
}
