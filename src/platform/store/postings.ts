import type { Cents } from '../../core/money.js';
import type { LedgerBasis, SourceType } from '../../api/index.js';
import type { PostingLine } from '../domain/journalEntries.js';
import { MultiRowInsert, type SqliteDatabase } from './database.js';

/** How a ledger basis is stored in postings. */
export const BASIS_CODE: Record<LedgerBasis, number> = { cash: 0, accrual: 1 };

/** What kind of record a posting's `source_seq` points at. */
export const SOURCE_KIND = { journalEntry: 0, bankTransaction: 1, openingBalance: 2 } as const;
export type SourceKind = (typeof SOURCE_KIND)[keyof typeof SOURCE_KIND];

/** Where a set of postings comes from, and where it lands. */
export interface PostingSource {
  entitySeq: number;
  ledgerBasis: LedgerBasis;
  day: string;
  sourceKind: SourceKind;
  /** The seq of the journal entry, bank transaction or opening balance. */
  sourceSeq: number;
  sourceType: SourceType;
  counterpartyName?: string | null;
}

/** A line to post: the account by its seq as well as its id. */
export interface PostingInput extends PostingLine {
  accountSeq: number;
}

/** A stored line, with its account's id, code and name for display. */
export interface PostedLine extends PostingInput {
  lineNo: number;
  accountCode: string;
  accountName: string;
}

interface PostedRow {
  id: number;
  source_seq: number;
  line_no: number;
  account_seq: number;
  account_id: string;
  code: string;
  name: string;
  debit_cents: Cents;
  credit_cents: Cents;
  description: string;
}

interface PostingRow {
  entity_seq: number;
  basis: number;
  account_seq: number;
  day: string;
  debit_cents: Cents;
  credit_cents: Cents;
  source_kind: number;
}

/** A change to the daily sums: plain numbers, summed and written by SQL in bulk. */
interface DailyRow {
  entity_seq: number;
  basis: number;
  account_seq: number;
  day: string;
  debit_cents: number;
  credit_cents: number;
  postings: number;
  opening_postings: number;
}

/** Changes to daily balances, summed per (entity, basis, account, day) before they are applied. */
class DailyDeltas {
  readonly byKey = new Map<string, DailyRow>();

  add(delta: DailyRow): void {
    const key = `${delta.entity_seq}|${delta.basis}|${delta.account_seq}|${delta.day}`;
    const sum = this.byKey.get(key);
    if (!sum) {
      this.byKey.set(key, delta);
      return;
    }
    sum.debit_cents += delta.debit_cents;
    sum.credit_cents += delta.credit_cents;
    sum.postings += delta.postings;
    sum.opening_postings += delta.opening_postings;
  }

  /** One posting written (sign 1) or removed (sign −1). */
  addPosting(row: PostingRow, sign: 1 | -1): void {
    this.add({
      entity_seq: row.entity_seq,
      basis: row.basis,
      account_seq: row.account_seq,
      day: row.day,
      debit_cents: sign * row.debit_cents,
      credit_cents: sign * row.credit_cents,
      postings: sign,
      opening_postings: row.source_kind === SOURCE_KIND.openingBalance ? sign : 0,
    });
  }
}

/**
 * The postings table — one row per line per ledger, what reports read — and the daily balances
 * summed from it, kept in step here: every write of postings goes through this store, inside
 * its caller's transaction.
 */
export class PostingStore {
  private readonly insertRows;
  private readonly maxIdStatement;
  private readonly insertClassStatement;
  private readonly sourceRowsStatement;
  private readonly deleteStatement;
  private readonly upsertDailyStatement;
  private readonly pruneDailyStatement;
  private readonly linesStatement;
  private readonly classesStatement;
  private readonly accountRowsStatement;
  private readonly moveAccountStatement;

  constructor(db: SqliteDatabase) {
    // 50 rows of 13 values a statement, well under SQLite's limit on parameters.
    this.insertRows = new MultiRowInsert(
      db,
      'postings',
      [
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
      ],
      50,
    );
    this.maxIdStatement = db.prepare('SELECT COALESCE(MAX(id), 0) FROM postings').pluck();
    this.insertClassStatement = db.prepare(
      'INSERT INTO posting_classes (posting_id, class_id) VALUES (?, ?)',
    );
    this.sourceRowsStatement = db.prepare<[number, number], PostingRow>(
      `SELECT entity_seq, basis, account_seq, day, debit_cents, credit_cents, source_kind
       FROM postings WHERE source_kind = ? AND source_seq = ?`,
    );
    this.deleteStatement = db.prepare(
      'DELETE FROM postings WHERE source_kind = ? AND source_seq = ?',
    );
    this.upsertDailyStatement = db.prepare(
      `INSERT INTO daily_balances (entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET debit_cents = debit_cents + excluded.debit_cents,
         credit_cents = credit_cents + excluded.credit_cents, postings = postings + excluded.postings,
         opening_postings = opening_postings + excluded.opening_postings`,
    );
    this.pruneDailyStatement = db.prepare(
      'DELETE FROM daily_balances WHERE entity_seq = ? AND basis = ? AND account_seq = ? AND day = ? AND postings = 0',
    );
    this.linesStatement = db.prepare<[number, string], PostedRow>(
      `SELECT p.id, p.source_seq, p.line_no, p.account_seq, a.id AS account_id, a.code, a.name,
              p.debit_cents, p.credit_cents, p.description
       FROM postings p JOIN accounts a ON a.seq = p.account_seq
       WHERE p.source_kind = ? AND p.source_seq IN (SELECT value FROM json_each(?))
       ORDER BY p.source_seq, p.basis, p.line_no`,
    );
    this.classesStatement = db.prepare<[string], { posting_id: number; class_id: string }>(
      `SELECT posting_id, class_id FROM posting_classes
       WHERE posting_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
    );
    this.accountRowsStatement = db.prepare<[number, number], DailyRow>(
      `SELECT entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings
       FROM daily_balances WHERE entity_seq = ? AND basis IN (0, 1) AND account_seq = ?`,
    );
    this.moveAccountStatement = db.prepare(
      'UPDATE postings SET account_seq = ? WHERE entity_seq = ? AND account_seq = ?',
    );
  }

  /**
   * Writes the lines of some sources; call inside the caller's transaction. Rows go in
   * multi-row INSERTs with ids assigned here (the transaction holds the write lock), so that
   * class assignments know their posting without a round trip per row.
   */
  insert(batch: readonly { source: PostingSource; lines: readonly PostingInput[] }[]): void {
    const deltas = new DailyDeltas();
    let nextId = Number(this.maxIdStatement.get()) + 1;
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
        );
        for (const classId of line.classIds) classes.push([id, classId]);
        deltas.addPosting(
          {
            entity_seq: source.entitySeq,
            basis,
            account_seq: line.accountSeq,
            day: source.day,
            debit_cents: line.debitCents,
            credit_cents: line.creditCents,
            source_kind: source.sourceKind,
          },
          1,
        );
      });
    }
    this.insertRows.run(rows);
    for (const [postingId, classId] of classes) this.insertClassStatement.run(postingId, classId);
    this.apply(deltas);
  }

  /** Removes every posting of a source (their class assignments go with them). */
  deleteSource(kind: SourceKind, seq: number): void {
    const deltas = new DailyDeltas();
    for (const row of this.sourceRowsStatement.all(kind, seq)) deltas.addPosting(row, -1);
    this.deleteStatement.run(kind, seq);
    this.apply(deltas);
  }

  /** Moves every posting of one account to another (an account merge). */
  moveAccount(entitySeq: number, fromSeq: number, toSeq: number): void {
    const deltas = new DailyDeltas();
    for (const row of this.accountRowsStatement.all(entitySeq, fromSeq)) {
      deltas.add({ ...row, account_seq: toSeq });
      deltas.add({
        ...row,
        debit_cents: -row.debit_cents,
        credit_cents: -row.credit_cents,
        postings: -row.postings,
        opening_postings: -row.opening_postings,
      });
    }
    this.moveAccountStatement.run(toSeq, entitySeq, fromSeq);
    this.apply(deltas);
  }

  private apply(deltas: DailyDeltas): void {
    for (const d of deltas.byKey.values()) {
      this.upsertDailyStatement.run(
        d.entity_seq,
        d.basis,
        d.account_seq,
        d.day,
        d.debit_cents,
        d.credit_cents,
        d.postings,
        d.opening_postings,
      );
      if (d.postings < 0) this.pruneDailyStatement.run(d.entity_seq, d.basis, d.account_seq, d.day);
    }
  }

  /** The lines of some sources, by source seq, in line order (one ledger's copy). */
  linesOf(kind: SourceKind, seqs: readonly number[]): Map<number, PostedLine[]> {
    const result = new Map<number, PostedLine[]>();
    if (seqs.length === 0) return result;
    const rows = this.linesStatement.all(kind, JSON.stringify(seqs));
    const classes = new Map<number, string[]>();
    if (rows.length > 0) {
      for (const row of this.classesStatement.all(JSON.stringify(rows.map((r) => r.id)))) {
        const list = classes.get(row.posting_id) ?? [];
        list.push(row.class_id);
        classes.set(row.posting_id, list);
      }
    }
    for (const row of rows) {
      const lines = result.get(row.source_seq) ?? [];
      // A source on both ledgers has each line twice; keep one copy.
      if (lines.length > row.line_no) continue;
      lines.push({
        lineNo: row.line_no,
        accountSeq: row.account_seq,
        accountId: row.account_id,
        accountCode: row.code,
        accountName: row.name,
        debitCents: row.debit_cents,
        creditCents: row.credit_cents,
        description: row.description,
        classIds: classes.get(row.id) ?? [],
      });
      result.set(row.source_seq, lines);
    }
    return result;
  }
}
