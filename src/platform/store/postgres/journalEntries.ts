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
import { insertRows } from './rows.js';

/**
 * Journal entries on PostgreSQL. Seqs come from the table's sequence, taken ahead (processes
 * write at the same time); a list page is read by offset and counted each time, since another
 * process may have written since the last page: exact, at the price of skipping the rows before
 * the page (a client reading a long list keeps offsets short: client/journalEntryPages.ts).
 */
export class PostgresJournalEntryStore extends JournalEntryStore {
  constructor(protected override readonly sql: PostgresSql) {
    super(sql);
  }

  async reserveSeqs(count: number): Promise<number[]> {
    if (count === 0) return [];
    const { rows } = await this.sql.query(
      "SELECT nextval('journal_entries_seq_seq') AS seq FROM generate_series(1, ?)",
      [count],
    );
    return (rows as { seq: number }[]).map((row) => row.seq);
  }

  async insertAll(entries: readonly JournalEntryRecord[]): Promise<void> {
    if (entries.length === 0) return;
    await this.sql.query(
      ...insertRows(
        `INSERT INTO journal_entries (${ENTRY_COLUMNS})`,
        ['bigint', 'uuid', 'uuid', 'text', 'date', 'text', 'text', 'timestamptz'],
        [
          entries.map((e) => e.seq),
          entries.map((e) => e.id),
          entries.map((e) => e.entityId),
          entries.map((e) => e.ledgerBasis),
          entries.map((e) => e.dateOnly),
          entries.map((e) => e.memo),
          entries.map((e) => e.sourceType),
          entries.map((e) => e.createdAt),
        ],
      ),
    );
  }

  async list(filter: JournalEntryFilter, limit: number, offset: number) {
    const params = listParameters(filter);
    // The page and its count in one statement, so one snapshot: a total that agrees with its rows
    // while other processes write.
    const rows = await this.sql.all<EntryRow & { total: number }>(
      `SELECT ${ENTRY_COLUMNS}, (SELECT COUNT(*) FROM journal_entries WHERE ${LIST_WHERE}) AS total
       FROM journal_entries WHERE ${LIST_WHERE}
       ORDER BY date_only DESC, seq DESC LIMIT ? OFFSET ?`,
      [...params, ...params, limit, offset],
    );
    return {
      rows: rows.map(toEntryRecord),
      total:
        rows[0]?.total ??
        (await countOf(
          this.sql,
          `SELECT COUNT(*) AS n FROM journal_entries WHERE ${LIST_WHERE}`,
          params,
        )),
    };
  }
}
