import type { SourceType } from '../../api/index.js';
import type { Cents } from '../../core/money.js';
import type { DailySums } from '../domain/reports/ledgerData.js';
import type { LedgerPosting } from '../domain/reports/generalLedger.js';
import type { SqliteDatabase } from './database.js';

interface DailyRow {
  account_seq: number;
  day: string;
  debit_cents: number;
  credit_cents: number;
  postings: number;
}

interface LedgerRow {
  account_seq: number;
  day: string;
  debit_cents: number;
  credit_cents: number;
  description: string;
  counterparty_name: string | null;
  source_type: string;
  source_id: string;
  memo: string;
}

/** The aggregate reads behind the reports: daily balances, and postings for the ledger. */
export class ReportStore {
  private readonly dailyStatement;
  private readonly openingStatement;
  private readonly ledgerStatement;
  private readonly accountLedgerStatement;

  constructor(db: SqliteDatabase) {
    this.dailyStatement = db.prepare<[number, number, string], DailyRow>(
      `SELECT account_seq, day, debit_cents, credit_cents, postings FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day <= ?`,
    );
    this.openingStatement = db.prepare<
      [number, number, string],
      { account_seq: number; net: number }
    >(
      `SELECT account_seq, SUM(debit_cents - credit_cents) AS net FROM daily_balances
       WHERE entity_seq = ? AND basis = ? AND day < ? GROUP BY account_seq`,
    );
    const ledger = (accountFilter: string) => `
      SELECT p.account_seq, p.day, p.debit_cents, p.credit_cents, p.description, p.counterparty_name,
             p.source_type,
             COALESCE(je.id, ob.id, bt.id, '') AS source_id,
             COALESCE(je.memo, '') AS memo
      FROM postings p
      LEFT JOIN journal_entries je ON p.source_kind = 0 AND je.seq = p.source_seq
      LEFT JOIN opening_balances ob ON p.source_kind = 2 AND ob.seq = p.source_seq
      LEFT JOIN bank_transactions bt ON p.source_kind = 1 AND bt.seq = p.source_seq
      WHERE p.entity_seq = ? AND p.basis = ? AND p.day >= ? AND p.day <= ? ${accountFilter}
      ORDER BY p.day, p.id`;
    this.ledgerStatement = db.prepare<[number, number, string, string], LedgerRow>(ledger(''));
    this.accountLedgerStatement = db.prepare<[number, number, string, string, number], LedgerRow>(
      ledger('AND p.account_seq = ?'),
    );
  }

  /** Every account's daily sums up to and including a day. */
  dailySums(entitySeq: number, basis: number, through: string): DailySums[] {
    return this.dailyStatement.all(entitySeq, basis, through).map((row) => ({
      accountSeq: row.account_seq,
      day: row.day,
      debitCents: row.debit_cents,
      creditCents: row.credit_cents,
      postings: row.postings,
    }));
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
    return rows.map((row) => ({
      accountSeq: row.account_seq,
      day: row.day,
      debitCents: row.debit_cents,
      creditCents: row.credit_cents,
      description: row.description,
      memo: row.memo,
      counterpartyName: row.counterparty_name,
      sourceId: row.source_id,
      sourceType: row.source_type as SourceType,
    }));
  }
}
