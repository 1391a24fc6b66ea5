import {
  ENTRY_COLUMNS,
  JournalEntryStore,
  LIST_WHERE,
  listParameters,
  toEntryRecord,
  type EntryRow,
  type JournalEntryFilter,
  type JournalEntryRecord,
} from '../journalEntries.js';
import { countOf } from '../sql.js';
import type { PostgresSql } from './backend.js';

/**
 * Journal entries on PostgreSQL. Seqs come from the table's sequence (processes write at the
 * same time); a list page is read by offset and counted each time, since another process may
 * have written since the last page: exact, at the price of skipping the rows before the page.
 */
export class PostgresJournalEntryStore extends JournalEntryStore {
  constructor(protected override readonly sql: PostgresSql) {
    super(sql);
  }

  async insertAll(entries: readonly JournalEntryRecord[]): Promise<void> {
    if (entries.length === 0) return;
    const { rows } = await this.sql.query(
      `INSERT INTO journal_entries (id, entity_id, ledger_basis, date_only, memo, source_type, created_at)
       SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::date[], ?::text[], ?::text[], ?::timestamptz[])
       RETURNING seq, id`,
      [
        entries.map((e) => e.id),
        entries.map((e) => e.entityId),
        entries.map((e) => e.ledgerBasis),
        entries.map((e) => e.dateOnly),
        entries.map((e) => e.memo),
        entries.map((e) => e.sourceType),
        entries.map((e) => e.createdAt),
      ],
    );
    const seqs = new Map((rows as { seq: number; id: string }[]).map((row) => [row.id, row.seq]));
    for (const entry of entries) entry.seq = seqs.get(entry.id)!;
  }

  async list(filter: JournalEntryFilter, limit: number, offset: number) {
    const params = listParameters(filter);
    const rows = await this.sql.all<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE ${LIST_WHERE}
       ORDER BY date_only DESC, seq DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    return {
      rows: rows.map(toEntryRecord),
      total: await countOf(
        this.sql,
        `SELECT COUNT(*) AS n FROM journal_entries WHERE ${LIST_WHERE}`,
        params,
      ),
    };
  }
}
