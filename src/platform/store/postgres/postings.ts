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
import type { PostgresSql } from './backend.js';
import { insertRows } from './rows.js';

/**
 * Postings on PostgreSQL: each write is one statement, whatever its number of rows (rows.ts). Posting ids come from the table's sequence, taken ahead only when class
 * assignments need them. The daily sums are written in key order, so that transactions that
 * touch the same accounts and days (every import posts to its bank account) lock those rows in
 * one order and queue rather than deadlock; they are written last, to hold those locks least.
 */
export class PostgresPostingStore implements PostingStore {
  constructor(private readonly sql: PostgresSql) {}

  async insert(batch: readonly PostingBatchItem[]): Promise<void> {
    const lineCount = batch.reduce((n, item) => n + item.lines.length, 0);
    if (lineCount === 0) return;
    const withClasses = batch.some((item) => item.lines.some((line) => line.classIds.length > 0));
    const ids = withClasses
      ? (
          await this.sql.query(
            "SELECT nextval('postings_id_seq') AS id FROM generate_series(1, ?)",
            [lineCount],
          )
        ).rows.map((row: { id: number }) => row.id)
      : [];
    const columns: unknown[][] = Array.from({ length: 13 }, () => []);
    const classes: [number[], string[]] = [[], []];
    let at = 0;
    for (const { source, lines } of batch) {
      const basis = BASIS_CODE[source.ledgerBasis];
      lines.forEach((line, index) => {
        const values = [
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
        ];
        values.forEach((value, column) => columns[column]!.push(value));
        for (const classId of line.classIds) {
          classes[0].push(ids[at]!);
          classes[1].push(classId);
        }
        at += 1;
      });
    }
    const insertColumns =
      'entity_seq, basis, account_seq, day, debit_cents, credit_cents, source_kind, source_seq, source_type, line_no, description, counterparty_name, tax_code';
    const types = [
      'bigint',
      'smallint',
      'bigint',
      'date',
      'bigint',
      'bigint',
      'smallint',
      'bigint',
      'text',
      'integer',
      'text',
      'text',
      'text',
    ];
    // The rows and their daily sums go out together (one round trip).
    const written = withClasses
      ? [
          this.sql.query(
            ...insertRows(
              `INSERT INTO postings (id, ${insertColumns})`,
              ['bigint', ...types],
              [ids, ...columns],
            ),
          ),
          this.sql.query(
            ...insertRows(
              'INSERT INTO posting_classes (posting_id, class_id)',
              ['bigint', 'uuid'],
              classes,
            ),
          ),
        ]
      : [this.sql.query(...insertRows(`INSERT INTO postings (${insertColumns})`, types, columns))];
    await Promise.all([...written, this.apply(dailyDeltasOf(batch))]);
  }

  async deleteSource(kind: SourceKind, seq: number): Promise<void> {
    const { rows } = await this.sql.query(
      `DELETE FROM postings WHERE source_kind = ? AND source_seq = ?
       RETURNING entity_seq, basis, account_seq, day, debit_cents, credit_cents, source_kind`,
      [kind, seq],
    );
    const deltas = new DailyDeltas();
    for (const row of rows as PostingRow[]) deltas.addPosting(row, -1);
    await this.apply(deltas);
  }

  async moveAccount(entitySeq: number, fromSeq: number, toSeq: number): Promise<void> {
    const { rows } = await this.sql.query(
      `SELECT entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings
       FROM daily_balances WHERE entity_seq = ? AND basis IN (0, 1) AND account_seq = ?`,
      [entitySeq, fromSeq],
    );
    await this.sql.query(
      'UPDATE postings SET account_seq = ? WHERE entity_seq = ? AND account_seq = ?',
      [toSeq, entitySeq, fromSeq],
    );
    await this.apply(DailyDeltas.ofMove(rows as DailyRow[], toSeq));
  }

  private async apply(deltas: DailyDeltas): Promise<void> {
    const rows = deltas.sorted();
    if (rows.length === 0) return;
    const column = <K extends keyof DailyRow>(key: K) => rows.map((row) => row[key]);
    const keys = [column('entity_seq'), column('basis'), column('account_seq'), column('day')];
    await this.sql.query(
      ...insertRows(
        'INSERT INTO daily_balances AS d (entity_seq, basis, account_seq, day, debit_cents, credit_cents, postings, opening_postings)',
        ['bigint', 'smallint', 'bigint', 'date', 'bigint', 'bigint', 'bigint', 'bigint'],
        [
          ...keys,
          column('debit_cents'),
          column('credit_cents'),
          column('postings'),
          column('opening_postings'),
        ],
        `ON CONFLICT (entity_seq, basis, account_seq, day) DO UPDATE SET
           debit_cents = d.debit_cents + excluded.debit_cents,
           credit_cents = d.credit_cents + excluded.credit_cents,
           postings = d.postings + excluded.postings,
           opening_postings = d.opening_postings + excluded.opening_postings`,
      ),
    );
    if (rows.some((row) => row.postings < 0)) {
      await this.sql.query(
        `DELETE FROM daily_balances WHERE postings = 0 AND (entity_seq, basis, account_seq, day) IN
           (SELECT * FROM unnest(?::bigint[], ?::smallint[], ?::bigint[], ?::date[]))`,
        keys,
      );
    }
  }

  async linesOf(kind: SourceKind, seqs: readonly number[]): Promise<Map<number, PostedLine[]>> {
    if (seqs.length === 0) return new Map();
    const { rows } = await this.sql.query(
      `SELECT p.id, p.source_seq, p.line_no, p.account_seq, a.id AS account_id, a.code, a.name,
              p.debit_cents, p.credit_cents, p.description, p.tax_code
       FROM postings p JOIN accounts a ON a.seq = p.account_seq
       WHERE p.source_kind = ? AND p.source_seq = ANY(?::bigint[])
       ORDER BY p.source_seq, p.basis, p.line_no`,
      [kind, seqs],
    );
    const classes =
      rows.length === 0
        ? []
        : (
            await this.sql.query(
              `SELECT posting_id, class_id FROM posting_classes
               WHERE posting_id = ANY(?::bigint[]) ORDER BY rowid`,
              [rows.map((row: PostedRow) => row.id)],
            )
          ).rows;
    return assembleLines(rows as PostedRow[], classes);
  }
}
