import type { Cents } from '../../core/money.js';
import type { LedgerBasis, SourceType } from '../../api/index.js';
import type { PostingLine } from '../domain/journalEntries.js';

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

/** A stored line as `linesOf` reads it, with its account. */
export interface PostedRow {
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
  tax_code: string | null;
}

/** What a posting adds to its account's day. */
export interface PostingRow {
  entity_seq: number;
  basis: number;
  account_seq: number;
  day: string;
  debit_cents: Cents;
  credit_cents: Cents;
  source_kind: number;
}

/** A change to the daily sums: plain numbers, summed and written by SQL in bulk. */
export interface DailyRow {
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
export class DailyDeltas {
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
  /**
   * The changes in key order (entity, basis, account, day): PostgreSQL writes them in this
   * order, so that two transactions that touch the same days lock them in the same order and
   * never deadlock.
   */
  sorted(): DailyRow[] {
    return [...this.byKey.values()].sort(
      (a, b) =>
        a.entity_seq - b.entity_seq ||
        a.basis - b.basis ||
        a.account_seq - b.account_seq ||
        (a.day < b.day ? -1 : a.day > b.day ? 1 : 0),
    );
  }

  /** What moving an account's daily sums to another account changes. */
  static ofMove(rows: readonly DailyRow[], toSeq: number): DailyDeltas {
    const deltas = new DailyDeltas();
    for (const row of rows) {
      deltas.add({ ...row, account_seq: toSeq });
      deltas.add({
        ...row,
        debit_cents: -row.debit_cents,
        credit_cents: -row.credit_cents,
        postings: -row.postings,
        opening_postings: -row.opening_postings,
      });
    }
    return deltas;
  }
}

/** One set of lines to post, with where they come from. */
export interface PostingBatchItem {
  source: PostingSource;
  lines: readonly PostingInput[];
}

/**
 * The postings table — one row per line per ledger, what reports read — and the daily balances
 * summed from it, kept in step here: every write of postings goes through this store, inside
 * its caller's transaction. Each backend writes in its own way (posting.ts in sqlite/ and
 * postgres/); what they share is here.
 */
export interface PostingStore {
  /** Writes the lines of some sources and their daily sums. */
  insert(batch: readonly PostingBatchItem[]): Promise<void>;
  /** Removes every posting of a source (their class assignments go with them). */
  deleteSource(kind: SourceKind, seq: number): Promise<void>;
  /** Moves every posting of one account to another (an account merge). */
  moveAccount(entitySeq: number, fromSeq: number, toSeq: number): Promise<void>;
  /** The lines of some sources, by source seq, in line order (one ledger's copy). */
  linesOf(kind: SourceKind, seqs: readonly number[]): Promise<Map<number, PostedLine[]>>;
}

/** The daily-sum changes of a batch of lines, and each line's row of values. */
export function dailyDeltasOf(batch: readonly PostingBatchItem[]): DailyDeltas {
  const deltas = new DailyDeltas();
  for (const { source, lines } of batch) {
    const basis = BASIS_CODE[source.ledgerBasis];
    for (const line of lines) {
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
    }
  }
  return deltas;
}

/**
 * Lines by source seq from rows ordered by source, basis and line number, with their classes
 * (by posting id, in assignment order). A source on both ledgers has each line twice; one copy
 * is kept.
 */
export function assembleLines(
  rows: readonly PostedRow[],
  classRows: readonly { posting_id: number; class_id: string }[],
): Map<number, PostedLine[]> {
  const classes = new Map<number, string[]>();
  for (const row of classRows) {
    const postingId = Number(row.posting_id);
    const list = classes.get(postingId) ?? [];
    list.push(row.class_id);
    classes.set(postingId, list);
  }
  const result = new Map<number, PostedLine[]>();
  for (const row of rows) {
    const sourceSeq = Number(row.source_seq);
    const lines = result.get(sourceSeq) ?? [];
    if (lines.length > row.line_no) continue;
    lines.push({
      lineNo: row.line_no,
      accountSeq: Number(row.account_seq),
      accountId: row.account_id,
      accountCode: row.code,
      accountName: row.name,
      debitCents: row.debit_cents,
      creditCents: row.credit_cents,
      description: row.description,
      taxCode: row.tax_code ?? null,
      classIds: classes.get(Number(row.id)) ?? [],
    });
    result.set(sourceSeq, lines);
  }
  return result;
}
