import type { LedgerBasis, SourceType } from '../../api/index.js';
import { MultiRowInsert, type SqliteDatabase } from './database.js';

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

interface EntryRow {
  seq: number;
  id: string;
  entity_id: string;
  ledger_basis: string;
  date_only: string;
  memo: string | null;
  source_type: string;
  created_at: string;
}

const COLUMNS = 'seq, id, entity_id, ledger_basis, date_only, memo, source_type, created_at';

const toRecord = (row: EntryRow): JournalEntryRecord => ({
  seq: row.seq,
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

export class JournalEntryStore {
  private readonly insertRows;
  private readonly maxSeqStatement;
  private readonly findStatement;
  private readonly listStatement;
  private readonly countStatement;
  private readonly updateStatement;
  private readonly deleteStatement;
  private readonly listAfterStatement;
  private readonly dataVersionStatement;
  /** Where pages ended (`query@offset` → the last row before that offset), while unchanged. */
  private readonly pageEnds = new Map<string, { afterDate: string; afterSeq: number }>();
  private readonly totals = new Map<string, number>();
  private writes = 0;
  private seenWrites = 0;
  private seenVersion = -1;

  constructor(db: SqliteDatabase) {
    this.insertRows = new MultiRowInsert(db, 'journal_entries', COLUMNS.split(', '), 100);
    this.maxSeqStatement = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM journal_entries').pluck();
    this.findStatement = db.prepare<[string, string], EntryRow>(
      `SELECT ${COLUMNS} FROM journal_entries WHERE id = ? AND entity_id = ?`,
    );
    const where = `entity_id = @entityId AND ledger_basis = @ledgerBasis
      AND date_only >= @startDate AND date_only <= @endDate`;
    this.listStatement = db.prepare(
      `SELECT ${COLUMNS} FROM journal_entries WHERE ${where}
       ORDER BY date_only DESC, seq DESC LIMIT @limit OFFSET @offset`,
    );
    this.listAfterStatement = db.prepare(
      `SELECT ${COLUMNS} FROM journal_entries WHERE ${where}
         AND (date_only, seq) < (@afterDate, @afterSeq)
       ORDER BY date_only DESC, seq DESC LIMIT @limit`,
    );
    this.dataVersionStatement = db.prepare('PRAGMA data_version').pluck();
    this.countStatement = db.prepare(`SELECT COUNT(*) FROM journal_entries WHERE ${where}`).pluck();
    this.updateStatement = db.prepare(
      'UPDATE journal_entries SET date_only = @dateOnly, memo = @memo WHERE id = @id',
    );
    this.deleteStatement = db.prepare('DELETE FROM journal_entries WHERE id = ?');
  }

  /**
   * Inserts entries, setting each one's seq; call inside a transaction (which holds the write
   * lock, so the seqs taken after the largest are free).
   */
  insertAll(entries: readonly JournalEntryRecord[]): void {
    this.writes += 1;
    let seq = Number(this.maxSeqStatement.get());
    const rows: unknown[] = [];
    for (const entry of entries) {
      entry.seq = ++seq;
      rows.push(
        entry.seq,
        entry.id,
        entry.entityId,
        entry.ledgerBasis,
        entry.dateOnly,
        entry.memo,
        entry.sourceType,
        entry.createdAt,
      );
    }
    this.insertRows.run(rows);
  }

  find(entityId: string, id: string): JournalEntryRecord | undefined {
    const row = this.findStatement.get(id, entityId);
    return row && toRecord(row);
  }

  /**
   * Entries most recent first (date, then creation), with the count of all matches. A client
   * reading a long list page after page asks for offset 0, 100, 200…: skipping `offset` rows and
   * counting every match on each page made reading 200,000 entries quadratic (43.8 s). While
   * the entries are unchanged (no write through this store, none by another connection: SQLite's
   * data_version), the next page starts after the row the last one ended on, found through the
   * index, and the count is the one already made. Any write forgets both.
   */
  list(filter: JournalEntryFilter, limit: number, offset: number) {
    const params = {
      entityId: filter.entityId,
      ledgerBasis: filter.ledgerBasis,
      startDate: filter.startDate ?? '0000-00-00',
      endDate: filter.endDate ?? '9999-99-99',
    };
    this.forgetIfChanged();
    const query = JSON.stringify(params);
    const after = offset > 0 ? this.pageEnds.get(`${query}@${offset}`) : undefined;
    const rows = (
      after === undefined
        ? this.listStatement.all({ ...params, limit, offset })
        : this.listAfterStatement.all({ ...params, ...after, limit })
    ) as EntryRow[];
    let total = this.totals.get(query);
    if (total === undefined) {
      total = Number(this.countStatement.get(params));
      this.remember(this.totals, query, total);
    }
    const last = rows[rows.length - 1];
    if (last !== undefined) {
      this.remember(this.pageEnds, `${query}@${offset + rows.length}`, {
        afterDate: last.date_only,
        afterSeq: last.seq,
      });
    }
    return { rows: rows.map(toRecord), total };
  }

  /** Forgets page ends and counts once entries may have changed. */
  private forgetIfChanged(): void {
    const version = Number(this.dataVersionStatement.get());
    if (version === this.seenVersion && this.writes === this.seenWrites) return;
    this.seenVersion = version;
    this.seenWrites = this.writes;
    this.pageEnds.clear();
    this.totals.clear();
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= 1000) map.delete(map.keys().next().value!);
    map.set(key, value);
  }

  update(entry: JournalEntryRecord): void {
    this.writes += 1;
    this.updateStatement.run({ id: entry.id, dateOnly: entry.dateOnly, memo: entry.memo });
  }

  delete(id: string): void {
    this.writes += 1;
    this.deleteStatement.run(id);
  }
}
