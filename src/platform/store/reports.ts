import type { SourceType } from '../../api/index.js';
import { CentsOverflow, type Cents } from '../../core/money.js';
import type { DailySums } from '../domain/reports/ledgerData.js';
import type { LedgerPosting } from '../domain/reports/generalLedger.js';
import type { Sql, SqlValue } from './sql.js';

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
  tax_code: string | null;
  source_type: string;
  source_id: string;
  memo: string;
}

/** Up to this many periods, a row's span is found by comparing its day with each start. */
const SPAN_COMPARISONS = 16;

function dailySumsOf(row: DailyRow): DailySums {
  return {
    accountSeq: Number(row.account_seq),
    day: row.day,
    debitCents: exactCents(row.debit_cents),
    creditCents: exactCents(row.credit_cents),
    postings: Number(row.postings),
  };
}

/**
 * A sum as the database gave it, refused past 2^53 cents: SQLite sums exactly but the number
 * it hands over would be rounded (PostgreSQL's are refused as they are read).
 */
function exactCents(sum: Cents): Cents {
  if (!Number.isSafeInteger(sum)) throw new CentsOverflow();
  return sum;
}

/**
 * How a backend files a day under its period when summing by period: the number of period
 * starts on or before the day (a sum of comparisons, each 0 or 1), or the day's month.
 */
export interface PeriodSpans {
  startsOnOrBefore(count: number): string;
  month: string;
}

export const PERIOD_SPANS: Record<Sql['dialect'], PeriodSpans> = {
  sqlite: {
    startsOnOrBefore: (count) => Array.from({ length: count }, () => '(day >= ?)').join(' + '),
    month: 'substr(day, 1, 7)',
  },
  postgres: {
    startsOnOrBefore: (count) =>
      Array.from({ length: count }, () => 'CAST(day >= ? AS INTEGER)').join(' + '),
    // As a timestamp, not a timestamptz: no time zone to work through for each row (22 ms
    // against to_char's 38 ms on three years of 44 accounts' days).
    month: "date_trunc('month', day::timestamp)",
  },
};

const LEDGER = (where: string) => `
  SELECT p.id, p.account_seq, p.day, p.debit_cents, p.credit_cents, p.description,
         p.counterparty_name, p.tax_code, p.source_type,
         COALESCE(CAST(je.id AS TEXT), CAST(ob.id AS TEXT), CAST(bt.id AS TEXT), '') AS source_id,
         COALESCE(je.memo, '') AS memo
  FROM postings p
  LEFT JOIN journal_entries je ON p.source_kind = 0 AND je.seq = p.source_seq
  LEFT JOIN opening_balances ob ON p.source_kind = 2 AND ob.seq = p.source_seq
  LEFT JOIN bank_transactions bt ON p.source_kind = 1 AND bt.seq = p.source_seq
  WHERE ${where}
  ORDER BY p.day, p.id`;

const RANGE = 'p.entity_seq = ? AND p.basis = ? AND p.day >= ? AND p.day <= ?';

/** The aggregate reads behind the reports: daily balances, and postings for the ledger. */
export class ReportStore {
  private readonly spans: PeriodSpans;

  constructor(private readonly sql: Sql) {
    this.spans = PERIOD_SPANS[sql.dialect];
  }

  /** Every account's daily sums up to and including a day. */
  async dailySums(entitySeq: number, basis: number, through: string): Promise<DailySums[]> {
    const rows = await this.sql.all<DailyRow>(
      `SELECT account_seq, day, debit_cents, credit_cents, postings FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day <= ?`,
      [entitySeq, basis, through],
    );
    return rows.map(dailySumsOf);
  }

  /**
   * Every account's sums up to and including a day, summed over spans that never straddle one
   * of `starts` (the periods' first days): before the first start, and between starts. Each
   * row is dated at its span's first posting day, so that the reports file it under the same
   * period as its days. Reports that need only per-period movements (trial balance, P&L, cash
   * flow) read tens of rows per account instead of one per day: on a 3-year ledger of 1M
   * postings, 50,000 rows took most of an embedded `report tb`.
   */
  async periodSums(
    entitySeq: number,
    basis: number,
    starts: readonly string[],
    through: string,
  ): Promise<DailySums[]> {
    const [first, ...later] = starts;
    if (first === undefined) return [];
    let span: string;
    let parameters: SqlValue[];
    if (starts.length <= SPAN_COMPARISONS) {
      // The number of starts on or before the day: 0 before the first period, then its index.
      span = this.spans.startsOnOrBefore(starts.length);
      parameters = [...starts];
    } else if (later.every((day) => day.endsWith('-01'))) {
      // Periods of whole months after the first: months, split at the first day.
      span = `day >= ?, ${this.spans.month}`;
      parameters = [first];
    } else {
      return this.dailySums(entitySeq, basis, through);
    }
    const rows = await this.sql.all<DailyRow>(
      `SELECT account_seq, MIN(day) AS day, SUM(debit_cents) AS debit_cents,
              SUM(credit_cents) AS credit_cents, SUM(postings) AS postings
       FROM daily_balances WHERE entity_seq = ? AND basis = ? AND day <= ?
       GROUP BY account_seq, ${span}`,
      [entitySeq, basis, through, ...parameters],
    );
    return rows.map(dailySumsOf);
  }

  /** Debits minus credits per account before a day. */
  async openingNet(entitySeq: number, basis: number, before: string): Promise<Map<number, Cents>> {
    const rows = await this.sql.all<{ account_seq: number; net: Cents }>(
      `SELECT account_seq, SUM(debit_cents - credit_cents) AS net FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day < ? GROUP BY account_seq`,
      [entitySeq, basis, before],
    );
    return new Map(rows.map((r) => [Number(r.account_seq), exactCents(r.net)]));
  }

  /** The postings of a range (optionally of one account), by date and then creation. */
  async ledgerPostings(
    entitySeq: number,
    basis: number,
    startDate: string,
    endDate: string,
    accountSeq?: number,
  ): Promise<LedgerPosting[]> {
    const rows =
      accountSeq === undefined
        ? await this.sql.all<LedgerRow>(LEDGER(RANGE), [entitySeq, basis, startDate, endDate])
        : await this.sql.all<LedgerRow>(LEDGER(`${RANGE} AND p.account_seq = ?`), [
            entitySeq,
            basis,
            startDate,
            endDate,
            accountSeq,
          ]);
    return rows.map(ledgerPostingOf);
  }

  /** The accounts with postings in a range. */
  async activeAccounts(
    entitySeq: number,
    basis: number,
    startDate: string,
    endDate: string,
  ): Promise<Set<number>> {
    const rows = await this.sql.all<{ account_seq: number }>(
      `SELECT DISTINCT account_seq FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day >= ? AND day <= ? AND postings > 0`,
      [entitySeq, basis, startDate, endDate],
    );
    return new Set(rows.map((row) => Number(row.account_seq)));
  }

  /**
   * Up to `limit` postings of one account through `endDate`, by date and then creation, after
   * the posting `after` (a day and a posting id; the range's first day and 0 to begin): the
   * general ledger reads an account in such chunks, holding no statement open between them.
   */
  async ledgerChunk(
    entitySeq: number,
    basis: number,
    accountSeq: number,
    after: { day: string; id: number },
    endDate: string,
    limit: number,
  ): Promise<(LedgerPosting & { id: number })[]> {
    const rows = await this.sql.all<LedgerRow>(
      `${LEDGER(
        `p.entity_seq = ? AND p.basis = ? AND p.account_seq = ? AND (p.day, p.id) > (?, ?)
         AND p.day <= ?`,
      )} LIMIT ?`,
      [entitySeq, basis, accountSeq, after.day, after.id, endDate, limit],
    );
    return rows.map((row) => ({ ...ledgerPostingOf(row), id: Number(row.id) }));
  }
}

function ledgerPostingOf(row: LedgerRow): LedgerPosting {
  return {
    accountSeq: Number(row.account_seq),
    day: row.day,
    debitCents: row.debit_cents,
    creditCents: row.credit_cents,
    description: row.description,
    memo: row.memo,
    counterpartyName: row.counterparty_name,
    taxCode: row.tax_code,
    sourceId: row.source_id,
    sourceType: row.source_type as SourceType,
  };
}
