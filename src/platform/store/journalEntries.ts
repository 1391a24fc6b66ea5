import type { LedgerBasis, SourceType } from '../../api/index.js';
import { isStoredId, type Sql } from './sql.js';

/** A journal entry's header; its lines live in the postings table. */
export interface JournalEntryRecord {
  /** The integer key its postings refer to (0 until written). */
  seq: number;
  id: string;
  entityId: string;
  ledgerBasis: LedgerBasis;
  dateOnly: string;
  memo: string | null;
  sourceType: SourceType;
  createdAt: string;
}

export interface EntryRow {
  seq: number;
  id: string;
  entity_id: string;
  ledger_basis: string;
  date_only: string;
  memo: string | null;
  source_type: string;
  created_at: string;
}

export const ENTRY_COLUMNS =
  'seq, id, entity_id, ledger_basis, date_only, memo, source_type, created_at';

export const toEntryRecord = (row: EntryRow): JournalEntryRecord => ({
  seq: Number(row.seq),
  id: row.id,
  entityId: row.entity_id,
  ledgerBasis: row.ledger_basis as LedgerBasis,
  dateOnly: row.date_only,
  memo: row.memo,
  sourceType: row.source_type as SourceType,
  createdAt: row.created_at,
});

export interface JournalEntryFilter {
  entityId: string;
  ledgerBasis: LedgerBasis;
  startDate?: string;
  endDate?: string;
}

/** A filter as the list statements bind it: open ends as days before and after any day. */
export function listParameters(filter: JournalEntryFilter): [string, string, string, string] {
  return [
    filter.entityId,
    filter.ledgerBasis,
    filter.startDate ?? '0001-01-01',
    filter.endDate ?? '9999-12-31',
  ];
}

export const LIST_WHERE = `entity_id = ? AND ledger_basis = ? AND date_only >= ? AND date_only <= ?`;

/**
 * Journal entry headers. Entries are listed most recent first (date, then creation), with the
 * count of all matches; how a backend pages through a long list is its own (sqlite/, postgres/).
 */
export abstract class JournalEntryStore {
  constructor(protected readonly sql: Sql) {}

  /**
   * Seqs for `count` new entries (call inside the transaction that inserts them): taken ahead,
   * so that the entries and their postings go out together.
   */
  abstract reserveSeqs(count: number): Promise<number[]>;

  /** Inserts entries with the seqs reserved for them (call inside a transaction). */
  abstract insertAll(entries: readonly JournalEntryRecord[]): Promise<void>;

  abstract list(
    filter: JournalEntryFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: JournalEntryRecord[]; total: number }>;

  async find(entityId: string, id: string): Promise<JournalEntryRecord | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE id = ? AND entity_id = ?`,
      [id, entityId],
    );
    return row && toEntryRecord(row);
  }

  async update(entry: JournalEntryRecord): Promise<void> {
    this.changed();
    await this.sql.run('UPDATE journal_entries SET date_only = ?, memo = ? WHERE id = ?', [
      entry.dateOnly,
      entry.memo,
      entry.id,
    ]);
  }

  async delete(id: string): Promise<void> {
    this.changed();
    await this.sql.run('DELETE FROM journal_entries WHERE id = ?', [id]);
  }

  /** Called before every write through this store. */
  protected changed(): void {}
}
