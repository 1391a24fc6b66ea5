import {
  assembleLines,
  BASIS_CODE,
  DailyDeltas,
  dailyDeltasOf,
  type DailyRow,
  type PostedLine,
  type PostedRow,
  type PostingBatchItem,
  type PostingRow,
  type PostingStore,
  type SourceKind,
} from '../postings.js';
import type { SqliteSql } from './backend.js';
import { MultiRowInsert, type SqliteDatabase } from './database.js';

const POSTING_COLUMNS = [
  'id',
  'entity_seq',
  'basis',
  'account_seq',
  'day',
  'debit_cents',
  'credit_cents',
  'source_kind',
  'source_seq',
  'source_type',
  'line_no',
  'description',
  'counterparty_name',
  'tax_code',
];

/**
 * Postings on SQLite: rows go in multi-row INSERTs with ids assigned here (the transaction holds
 * the write lock, so the ids after the largest are free), so that class assignments know their
 * posting without a round trip per row. Statements run directly on the connection: the caller's
 * transaction holds it.
 */
export class SqlitePostingStore implements PostingStore {
  // 50 rows of 14 values a statement, well under SQLite's limit on parameters.
  private readonly insertRows: MultiRowInsert;

  constructor(
    db: SqliteDatabase,
    private readonly sql: SqliteSql,
  ) {
    this.insertRows = new MultiRowInsert(db, 'postings', POSTING_COLUMNS, 50);
  }

  insert(batch: readonly PostingBatchItem[]): Promise<void> {
    return this.sql.when(() => {
      let nextId =
        Number(this.sql.prepare('SELECT COALESCE(MAX(id), 0) FROM postings').pluck().get()) + 1;
      const rows: unknown[] = [];
      const classes: [number, string][] = [];
      for (const { source, lines } of batch) {
        const basis = BASIS_CODE[source.ledgerBasis];
        lines.forEach((line, index) => {
          const id = nextId++;
          rows.push(
            id,
            source.entitySeq,
            basis,
            line.accountSeq,
            source.day,
            line.debitCents,
            line.creditCents,
            source.sourceKind,
            source.sourceSeq,
            source.sourceType,
            index,
            line.description,
            source.counterpartyName ?? null,
            line.taxCode ?? null,
          );
          for (const classId of line.classIds) classes.push([id, classId]);
        });
      }
      this.insertRows.run(rows);
      const insertClass = this.sql.prepare(
        'INSERT INTO posting_classes (posting_id, class_id) VALUES (?, ?)',
      );
      for (const [postingId, classId] of classes) insertClass.run(postingId, classId);
      this.apply(dailyDeltasOf(batch));
    });
  }

  deleteSource(kind: SourceKind, seq: number): Promise<void> {
    return this.sql.when(() => {
      const deltas = new DailyDeltas();
      const rows = this.sql
        .prepare(
          `SELECT entity_seq, basis, account_seq, day, debit_cents, credit_cents, source_kind
           FROM postings WHERE source_kind = ? AND source_seq = ?`,
        )
        .all(kind, seq) as PostingRow[];
      for (const row of rows) deltas.addPosting(row, -1);
      this.sql
        .prepare('DELETE FROM postings WHERE source_kind = ? AND source_seq = ?')
        .run(kind, seq);
      this.apply(deltas);
    });
  }

  moveAccount(entitySeq: number, fromSeq: number, toSeq: number): Promise<void> {
    return this.sql.when(() => {
      const rows = this.sql
        .prepare(
          `SELECT entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings
           FROM daily_balances WHERE entity_seq = ? AND basis IN (0, 1) AND account_seq = ?`,
        )
        .all(entitySeq, fromSeq) as DailyRow[];
      this.sql
        .prepare('UPDATE postings SET account_seq = ? WHERE entity_seq = ? AND account_seq = ?')
        .run(toSeq, entitySeq, fromSeq);
      this.apply(DailyDeltas.ofMove(rows, toSeq));
    });
  }

  private apply(deltas: DailyDeltas): void {
    const upsert = this.sql.prepare(
      `INSERT INTO daily_balances (entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET debit_cents = debit_cents + excluded.debit_cents,
         credit_cents = credit_cents + excluded.credit_cents, postings = postings + excluded.postings,
         opening_postings = opening_postings + excluded.opening_postings`,
    );
    const prune = this.sql.prepare(
      'DELETE FROM daily_balances WHERE entity_seq = ? AND basis = ? AND account_seq = ? AND day = ? AND postings = 0',
    );
    for (const d of deltas.byKey.values()) {
      upsert.run(
        d.entity_seq,
        d.basis,
        d.account_seq,
        d.day,
        d.debit_cents,
        d.credit_cents,
        d.postings,
        d.opening_postings,
      );
      if (d.postings < 0) prune.run(d.entity_seq, d.basis, d.account_seq, d.day);
    }
  }

  linesOf(kind: SourceKind, seqs: readonly number[]): Promise<Map<number, PostedLine[]>> {
    return this.sql.when(() => {
      if (seqs.length === 0) return new Map<number, PostedLine[]>();
      const rows = this.sql
        .prepare(
          `SELECT p.id, p.source_seq, p.line_no, p.account_seq, a.id AS account_id, a.code, a.name,
                  p.debit_cents, p.credit_cents, p.description, p.tax_code
           FROM postings p JOIN accounts a ON a.seq = p.account_seq
           WHERE p.source_kind = ? AND p.source_seq IN (SELECT value FROM json_each(?))
           ORDER BY p.source_seq, p.basis, p.line_no`,
        )
        .all(kind, JSON.stringify(seqs)) as PostedRow[];
      const classes =
        rows.length === 0
          ? []
          : (this.sql
              .prepare(
                `SELECT posting_id, class_id FROM posting_classes
                 WHERE posting_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
              )
              .all(JSON.stringify(rows.map((r) => r.id))) as {
              posting_id: number;
              class_id: string;
            }[]);
      return assembleLines(rows, classes);
    });
  }
}
