import { Store, type StoreOptions } from '../index.js';
import { PostgresBackend } from './backend.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { PostgresJournalEntryStore } from './journalEntries.js';
import { PostgresPostingStore } from './postings.js';

/** The store on a PostgreSQL database, connected and migrated. */
export async function openPostgresStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const backend = await PostgresBackend.open(url, options);
  return new Store(backend, {
    journalEntries: new PostgresJournalEntryStore(backend.sql),
    postings: new PostgresPostingStore(backend.sql),
    idempotency: new PostgresIdempotencyStore(backend.sql),
  });
}
