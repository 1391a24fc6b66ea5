import type { LedgerBasis, SourceType } from '../../api/index.js';
import type { PostingLine } from '../domain/journalEntries.js';
import type { SqliteDatabase } from './database.js';

/** Where a set of postings comes from, and where it lands. */
export interface PostingSource {
  entityId: string;
  ledgerBasis: LedgerBasis;
  day: string;
  sourceType: SourceType;
  /** The journal entry, bank transaction or opening balance the postings belong to. */
  sourceId: string;
  counterpartyName?: string | null;
}

/** A stored line, with its account's code and name for display. */
export interface PostedLine extends PostingLine {
  sourceId: string;
  lineNo: number;
  accountCode: string;
  accountName: string;
}

interface PostedRow {
  id: number;
  source_id: string;
  line_no: number;
  account_id: string;
  code: string;
  name: string;
  debit_cents: number;
  credit_cents: number;
  description: string;
}

/** The postings table: one row per line per ledger, what reports sum. */
export class PostingStore {
  private readonly insertStatement;
  private readonly insertClassStatement;
  private readonly deleteStatement;
  private readonly linesStatement;
  private readonly classesStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      `INSERT INTO postings (entity_id, ledger_basis, account_id, day, debit_cents, credit_cents, source_type, source_id, line_no, description, counterparty_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertClassStatement = db.prepare(
      'INSERT INTO posting_classes (posting_id, class_id) VALUES (?, ?)',
    );
    this.deleteStatement = db.prepare('DELETE FROM postings WHERE source_id = ?');
    this.linesStatement = db.prepare<[string], PostedRow>(
      `SELECT p.id, p.source_id, p.line_no, p.account_id, a.code, a.name, p.debit_cents, p.credit_cents, p.description
       FROM postings p JOIN accounts a ON a.id = p.account_id
       WHERE p.source_id IN (SELECT value FROM json_each(?))
       ORDER BY p.source_id, p.ledger_basis, p.line_no`,
    );
    this.classesStatement = db.prepare<[string], { posting_id: number; class_id: string }>(
      `SELECT posting_id, class_id FROM posting_classes
       WHERE posting_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
    );
  }

  /** Writes the lines of one source; call inside the caller's transaction. */
  insert(source: PostingSource, lines: readonly PostingLine[]): void {
    lines.forEach((line, index) => {
      const { lastInsertRowid } = this.insertStatement.run(
        source.entityId,
        source.ledgerBasis,
        line.accountId,
        source.day,
        line.debitCents,
        line.creditCents,
        source.sourceType,
        source.sourceId,
        index,
        line.description,
        source.counterpartyName ?? null,
      );
      for (const classId of line.classIds) this.insertClassStatement.run(lastInsertRowid, classId);
    });
  }

  /** Removes every posting of a source (their class assignments go with them). */
  deleteSource(sourceId: string): void {
    this.deleteStatement.run(sourceId);
  }

  /** The lines of some sources, grouped by source id, in line order (one ledger's copy). */
  linesOf(sourceIds: readonly string[]): Map<string, PostedLine[]> {
    const result = new Map<string, PostedLine[]>();
    if (sourceIds.length === 0) return result;
    const rows = this.linesStatement.all(JSON.stringify(sourceIds));
    const classes = new Map<number, string[]>();
    for (const row of this.classesStatement.all(JSON.stringify(rows.map((r) => r.id)))) {
      const list = classes.get(row.posting_id) ?? [];
      list.push(row.class_id);
      classes.set(row.posting_id, list);
    }
    for (const row of rows) {
      const lines = result.get(row.source_id) ?? [];
      // A source on both ledgers has each line twice; keep one copy.
      if (lines.some((line) => line.lineNo === row.line_no)) continue;
      lines.push({
        sourceId: row.source_id,
        lineNo: row.line_no,
        accountId: row.account_id,
        accountCode: row.code,
        accountName: row.name,
        debitCents: row.debit_cents,
        creditCents: row.credit_cents,
        description: row.description,
        classIds: classes.get(row.id) ?? [],
      });
      result.set(row.source_id, lines);
    }
    return result;
  }
}
