import type { SourceType } from '../../api/index.js';
import type { Cents } from '../../core/money.js';
import type { DailySums } from '../domain/reports/ledgerData.js';
import type { LedgerPosting } from '../domain/reports/generalLedger.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database.js';

interface DailyRow {
  account_seq: number;
  day: string;
  debit_cents: Cents;
  credit_cents: Cents;
  postings: number;
}

interface LedgerRow {
  id: number;
  account_seq: number;
  day: string;
  debit_cents: Cents;
  credit_cents: Cents;
  description: string;
  counterparty_name: string | null;
  source_type: string;
  source_id: string;
  memo: string;
}

/** Up to this many periods, a row's span is found by comparing its day with each start. */
const SPAN_COMPARISONS = 16;

function dailySumsOf(row: DailyRow): DailySums {
  return {
    accountSeq: row.account_seq,
    day: row.day,
    debitCents: row.debit_cents,
    creditCents: row.credit_cents,
    postings: row.postings,
  };
}

/** The aggregate reads behind the reports: daily balances, and postings for the ledger. */
export class ReportStore {
  private readonly dailyStatement;
  private readonly openingStatement;
  private readonly ledgerStatement;
  private readonly accountLedgerStatement;
  private readonly ledgerChunkStatement;
  private readonly activeAccountsStatement;
  /** The per-period reads, by how they make spans (one per count of periods up to 16, and one more). */
  private readonly spanStatements = new Map<string, Statement<(number | string)[], DailyRow>>();

  constructor(private readonly db: SqliteDatabase) {
    this.dailyStatement = db.prepare<[number, number, string], DailyRow>(
      `SELECT account_seq, day, debit_cents, credit_cents, postings FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day <= ?`,
    );
    this.openingStatement = db.prepare<
      [number, number, string],
      { account_seq: number; net: Cents }
    >(
      `SELECT account_seq, SUM(debit_cents - credit_cents) AS net FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day < ? GROUP BY account_seq`,
    );
    const ledger = (where: string) => `
      SELECT p.id, p.account_seq, p.day, p.debit_cents, p.credit_cents, p.description,
             p.counterparty_name, p.source_type,
             COALESCE(je.id, ob.id, bt.id, '') AS source_id,
             COALESCE(je.memo, '') AS memo
      FROM postings p
      LEFT JOIN journal_entries je ON p.source_kind = 0 AND je.seq = p.source_seq
      LEFT JOIN opening_balances ob ON p.source_kind = 2 AND ob.seq = p.source_seq
      LEFT JOIN bank_transactions bt ON p.source_kind = 1 AND bt.seq = p.source_seq
      WHERE ${where}
      ORDER BY p.day, p.id`;
    const range = 'p.entity_seq = ? AND p.basis = ? AND p.day >= ? AND p.day <= ?';
    this.ledgerStatement = db.prepare<[number, number, string, string], LedgerRow>(ledger(range));
    this.accountLedgerStatement = db.prepare<[number, number, string, string, number], LedgerRow>(
      ledger(`${range} AND p.account_seq = ?`),
    );
    this.ledgerChunkStatement = db.prepare<
      [number, number, number, string, number, string, number],
      LedgerRow
    >(
      `${ledger(
        `p.entity_seq = ? AND p.basis = ? AND p.account_seq = ? AND (p.day, p.id) > (?, ?)
         AND p.day <= ?`,
      )} LIMIT ?`,
    );
    this.activeAccountsStatement = db
      .prepare<[number, number, string, string], number>(
        `SELECT DISTINCT account_seq FROM daily_balances
         WHERE entity_seq = ? AND basis = ? AND day >= ? AND day <= ? AND postings > 0`,
      )
      .pluck();
  }

  /** Every account's daily sums up to and including a day. */
  dailySums(entitySeq: number, basis: number, through: string): DailySums[] {
    return this.dailyStatement.all(entitySeq, basis, through).map(dailySumsOf);
  }

  /**
   * Every account's sums up to and including a day, summed over spans that never straddle one
   * of `starts` (the periods' first days): before the first start, and between starts. Each
   * row is dated at its span's first posting day, so that the reports file it under the same
   * period as its days. Reports that need only per-period movements (trial balance, P&L, cash
   * flow) read tens of rows per account instead of one per day: on a 3-year ledger of 1M
   * postings, 50,000 rows took most of an embedded `report tb`.
   */
  periodSums(
    entitySeq: number,
    basis: number,
    starts: readonly string[],
    through: string,
  ): DailySums[] {
    const [first, ...later] = starts;
    if (first === undefined) return [];
    let span: string;
    let parameters: string[];
    if (starts.length <= SPAN_COMPARISONS) {
      // The number of starts on or before the day: 0 before the first period, then its index.
      span = starts.map(() => '(day >= ?)').join(' + ');
      parameters = [...starts];
    } else if (later.every((day) => day.endsWith('-01'))) {
      // Periods of whole months after the first: months, split at the first day.
      span = `day >= ?, substr(day, 1, 7)`;
      parameters = [first];
    } else {
      return this.dailySums(entitySeq, basis, through);
    }
    let statement = this.spanStatements.get(span);
    if (!statement) {
      statement = this.db.prepare<(number | string)[], DailyRow>(
        `SELECT account_seq, MIN(day) AS day, SUM(debit_cents) AS debit_cents,
                SUM(credit_cents) AS credit_cents, SUM(postings) AS postings
         FROM daily_balances WHERE entity_seq = ? AND basis = ? AND day <= ?
         GROUP BY account_seq, ${span}`,
      );
      this.spanStatements.set(span, statement);
    }
    return statement.all(entitySeq, basis, through, ...parameters).map(dailySumsOf);
  }

  /** Debits minus credits per account before a day. */
  openingNet(entitySeq: number, basis: number, before: string): Map<number, Cents> {
    return new Map(
      this.openingStatement.all(entitySeq, basis, before).map((r) => [r.account_seq, r.net]),
    );
  }

  /** The postings of a range (optionally of one account), by date and then creation. */
  ledgerPostings(
    entitySeq: number,
    basis: number,
    startDate: string,
    endDate: string,
    accountSeq?: number,
  ): LedgerPosting[] {
    const rows =
      accountSeq === undefined
        ? this.ledgerStatement.all(entitySeq, basis, startDate, endDate)
        : this.accountLedgerStatement.all(entitySeq, basis, startDate, endDate, accountSeq);
    return rows.map(ledgerPostingOf);
  }

  /** The accounts with postings in a range. */
  activeAccounts(
    entitySeq: number,
    basis: number,
    startDate: string,
    endDate: string,
  ): Set<number> {
    return new Set(this.activeAccountsStatement.all(entitySeq, basis, startDate, endDate));
  }

  /**
   * Up to `limit` postings of one account through `endDate`, by date and then creation, after
   * the posting `after` (a day and a posting id; the range's first day and 0 to begin): the
   * general ledger reads an account in such chunks, holding no statement open between them.
   */
  ledgerChunk(
    entitySeq: number,
    basis: number,
    accountSeq: number,
    after: { day: string; id: number },
    endDate: string,
    limit: number,
  ): (LedgerPosting & { id: number })[] {
    return this.ledgerChunkStatement
      .all(entitySeq, basis, accountSeq, after.day, after.id, endDate, limit)
      .map((row) => ({ ...ledgerPostingOf(row), id: row.id }));
  }
}

function ledgerPostingOf(row: LedgerRow): LedgerPosting {
  return {
    accountSeq: row.account_seq,
    day: row.day,
    debitCents: row.debit_cents,
    creditCents: row.credit_cents,
    description: row.description,
    memo: row.memo,
    counterpartyName: row.counterparty_name,
    sourceId: row.source_id,
    sourceType: row.source_type as SourceType,
  };
}
