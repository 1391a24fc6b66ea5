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
import type { SqliteSql } from './backend.js';
import { MultiRowInsert, type SqliteDatabase } from './database.js';

export class SqliteJournalEntryStore extends JournalEntryStore {
  private readonly insertRows: MultiRowInsert;
  /** Where pages ended (`query@offset` → the last row before that offset), while unchanged. */
  private readonly pageEnds = new Map<string, { afterDate: string; afterSeq: number }>();
  private readonly totals = new Map<string, number>();
  private writes = 0;
  private seenWrites = 0;
  private seenVersion = -1;

  constructor(
    db: SqliteDatabase,
    protected override readonly sql: SqliteSql,
  ) {
    super(sql);
    this.insertRows = new MultiRowInsert(db, 'journal_entries', ENTRY_COLUMNS.split(', '), 100);
  }

  /** Seqs after the largest are free: the caller's transaction holds the write lock. */
  reserveSeqs(count: number): Promise<number[]> {
    return this.sql.when(() => {
      const last = Number(
        this.sql.prepare('SELECT COALESCE(MAX(seq), 0) FROM journal_entries').pluck().get(),
      );
      return Array.from({ length: count }, (_, i) => last + i + 1);
    });
  }

  insertAll(entries: readonly JournalEntryRecord[]): Promise<void> {
    this.changed();
    return this.sql.when(() => {
      const rows: unknown[] = [];
      for (const entry of entries) {
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
    });
  }

  /**
   * A client reading a long list page after page asks for offset 0, 100, 200…: skipping
   * `offset` rows and counting every match on each page made reading 200,000 entries quadratic
   * (43.8 s). While the entries are unchanged (no write through this store, none by another
   * connection: SQLite's data_version), the next page starts after the row the last one ended
   * on, found through the index, and the count is the one already made. Any write forgets both.
   */
  list(filter: JournalEntryFilter, limit: number, offset: number) {
    return this.sql.when(() => {
      const params = listParameters(filter);
      this.forgetIfChanged();
      const query = params.join('|');
      const after = offset > 0 ? this.pageEnds.get(`${query}@${offset}`) : undefined;
      const rows = (
        after === undefined
          ? this.sql
              .prepare(
                `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE ${LIST_WHERE}
                 ORDER BY date_only DESC, seq DESC LIMIT ? OFFSET ?`,
              )
              .all(...params, limit, offset)
          : this.sql
              .prepare(
                `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE ${LIST_WHERE}
                   AND (date_only, seq) < (?, ?)
                 ORDER BY date_only DESC, seq DESC LIMIT ?`,
              )
              .all(...params, after.afterDate, after.afterSeq, limit)
      ) as EntryRow[];
      let total = this.totals.get(query);
      if (total === undefined) {
        total = Number(
          this.sql
            .prepare(`SELECT COUNT(*) FROM journal_entries WHERE ${LIST_WHERE}`)
            .pluck()
            .get(...params),
        );
        this.remember(this.totals, query, total);
      }
      const last = rows[rows.length - 1];
      if (last !== undefined) {
        this.remember(this.pageEnds, `${query}@${offset + rows.length}`, {
          afterDate: last.date_only,
          afterSeq: last.seq,
        });
      }
      return { rows: rows.map(toEntryRecord), total };
    });
  }

  protected override changed(): void {
    this.writes += 1;
  }

  /** Forgets page ends and counts once entries may have changed. */
  private forgetIfChanged(): void {
    const version = Number(this.sql.prepare('PRAGMA data_version').pluck().get());
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
}
